// What of the schema a document uses, by schema coordinate (`Type.field`, `Type.field.argument`,
// `Input.field`, `Enum.VALUE`, `Type`, `@directive`). The service counts the deprecated ones per
// client (worked out once per document); `npm run schema:check` matches schema changes against them.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
  type ASTVisitor,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export interface CoordinateUse {
  coordinate: string;
  /** The `@deprecated` reason of what the coordinate names; null when it is not deprecated. */
  deprecationReason: string | null;
}

/**
 * Every schema coordinate the document uses, each once, in order of first use. An input type taken
 * through a variable counts with all its fields and nested input types (the client builds the
 * value, so any of them may be sent); an enum taken through a variable, with all its values.
 */
export function coordinatesUsedBy(schema: GraphQLSchema, document: DocumentNode): CoordinateUse[] {
  const used = new Map<string, string | null>();
  const add: AddCoordinate = (coordinate, deprecationReason = null) => {
    if (!used.has(coordinate)) used.set(coordinate, deprecationReason ?? null);
  };
  const typeInfo = new TypeInfo(schema);
  visit(document, visitWithTypeInfo(typeInfo, usageVisitor(schema, typeInfo, add)));
  return [...used].map(([coordinate, deprecationReason]) => ({ coordinate, deprecationReason }));
}

type AddCoordinate = (coordinate: string, deprecationReason?: string | null) => void;

/** An input type with all its fields and nested input types; an enum with all its values. */
function addInputType(add: AddCoordinate, type: GraphQLNamedType, seen = new Set<string>()): void {
  if (seen.has(type.name)) return;
  seen.add(type.name);
  add(type.name);
  if (isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) {
      add(`${type.name}.${field.name}`, field.deprecationReason);
      addInputType(add, getNamedType(field.type), seen);
    }
  } else if (isEnumType(type)) {
    for (const value of type.getValues()) add(`${type.name}.${value.name}`, value.deprecationReason);
  }
}

/** What each node of a document adds, read with `typeInfo` as visitWithTypeInfo keeps it. */
function usageVisitor(schema: GraphQLSchema, typeInfo: TypeInfo, add: AddCoordinate): ASTVisitor {
  return {
    OperationDefinition(node) {
      const root = schema.getRootType(node.operation);
      if (root) add(root.name);
    },
    VariableDefinition(node) {
      const type = typeFromAST(schema, node.type);
      if (type) addInputType(add, getNamedType(type));
    },
    Field(node) {
      const parent = typeInfo.getParentType();
      const field = typeInfo.getFieldDef();
      if (!parent || !field || node.name.value.startsWith('__')) return;
      add(`${parent.name}.${field.name}`, field.deprecationReason);
      add(getNamedType(field.type).name);
    },
    Argument(node) {
      const directive = typeInfo.getDirective();
      if (directive) {
        add(`@${directive.name}.${node.name.value}`);
        return;
      }
      const parent = typeInfo.getParentType();
      const field = typeInfo.getFieldDef();
      const argument = typeInfo.getArgument();
      if (!parent || !field || !argument) return;
      add(`${parent.name}.${field.name}.${argument.name}`, argument.deprecationReason);
      add(getNamedType(argument.type).name);
    },
    ObjectField(node) {
      const parent = typeInfo.getParentInputType();
      const input = parent && getNamedType(parent);
      if (!input || !isInputObjectType(input)) return;
      add(input.name);
      add(`${input.name}.${node.name.value}`, input.getFields()[node.name.value]?.deprecationReason);
    },
    EnumValue(node) {
      const type = typeInfo.getInputType();
      const named = type && getNamedType(type);
      if (!named || !isEnumType(named)) return;
      add(`${named.name}.${node.value}`, named.getValue(node.value)?.deprecationReason);
    },
    InlineFragment(node) {
      if (node.typeCondition) add(node.typeCondition.name.value);
    },
    FragmentDefinition(node) {
      add(node.typeCondition.name.value);
    },
    Directive(node) {
      add(`@${node.name.value}`);
    },
  };
}

/** The fragments an operation spreads, directly or through other fragments. */
export function fragmentsSpreadBy(node: DefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const walk = (definition: DefinitionNode) =>
    visit(definition, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment || found.has(name)) return;
        found.set(name, fragment);
        walk(fragment);
      },
    });
  walk(node);
  return [...found.values()];
}
