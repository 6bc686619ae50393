// Compares a schema against the public contract: every type, field, argument, input field, enum
// value, union member and interface the contract names must exist with the identical type string.
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
  isUnionType,
  OperationTypeNode,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

const kindOf = (type: GraphQLNamedType) => type.constructor.name;

/** A new argument or input field must not be required, or every contract-shaped call would break. */
const isRequiredAddition = (input: GraphQLArgument | GraphQLInputField) =>
  isNonNullType(input.type) && input.defaultValue === undefined;

/** Every way `actual` falls short of `contract`, one sentence each; empty when it keeps the contract. */
export function contractDifferences(contract: GraphQLSchema, actual: GraphQLSchema): string[] {
  const differences: string[] = [];
  for (const operation of [OperationTypeNode.QUERY, OperationTypeNode.MUTATION, OperationTypeNode.SUBSCRIPTION]) {
    const expected = contract.getRootType(operation)?.name;
    const found = actual.getRootType(operation)?.name;
    if (expected !== undefined && expected !== found) differences.push(`The ${operation} root type is '${found}', not '${expected}'.`);
  }

  for (const expected of Object.values(contract.getTypeMap())) {
    if (expected.name.startsWith('__')) continue;
    const found = actual.getType(expected.name);
    if (!found) {
      differences.push(`Type '${expected.name}' is missing.`);
      continue;
    }
    if (kindOf(found) !== kindOf(expected)) {
      differences.push(`Type '${expected.name}' is a ${kindOf(found)}, not a ${kindOf(expected)}.`);
      continue;
    }

    if ((isObjectType(expected) || isInterfaceType(expected)) && (isObjectType(found) || isInterfaceType(found))) {
      const foundInterfaces = new Set(found.getInterfaces().map((i) => i.name));
      for (const i of expected.getInterfaces()) {
        if (!foundInterfaces.has(i.name)) differences.push(`Type '${expected.name}' does not implement '${i.name}'.`);
      }
      const foundFields = found.getFields();
      for (const field of Object.values(expected.getFields())) {
        const where = `${expected.name}.${field.name}`;
        const actualField = foundFields[field.name];
        if (!actualField) {
          differences.push(`Field '${where}' is missing.`);
          continue;
        }
        if (String(actualField.type) !== String(field.type)) {
          differences.push(`Field '${where}' is '${String(actualField.type)}', not '${String(field.type)}'.`);
        }
        const foundArgs = new Map(actualField.args.map((arg) => [arg.name, arg]));
        for (const arg of field.args) {
          const actualArg = foundArgs.get(arg.name);
          if (!actualArg) differences.push(`Argument '${where}(${arg.name})' is missing.`);
          else if (String(actualArg.type) !== String(arg.type)) {
            differences.push(`Argument '${where}(${arg.name})' is '${String(actualArg.type)}', not '${String(arg.type)}'.`);
          }
          foundArgs.delete(arg.name);
        }
        for (const added of foundArgs.values()) {
          if (isRequiredAddition(added)) differences.push(`Argument '${where}(${added.name})' is added as required.`);
        }
      }
    }

    if (isInputObjectType(expected) && isInputObjectType(found)) {
      const foundFields = new Map(Object.entries(found.getFields()));
      for (const field of Object.values(expected.getFields())) {
        const where = `${expected.name}.${field.name}`;
        const actualField = foundFields.get(field.name);
        if (!actualField) differences.push(`Input field '${where}' is missing.`);
        else if (String(actualField.type) !== String(field.type)) {
          differences.push(`Input field '${where}' is '${String(actualField.type)}', not '${String(field.type)}'.`);
        }
        foundFields.delete(field.name);
      }
      for (const added of foundFields.values()) {
        if (isRequiredAddition(added)) differences.push(`Input field '${expected.name}.${added.name}' is added as required.`);
      }
    }

    if (isEnumType(expected) && isEnumType(found)) {
      const values = new Set(found.getValues().map((value) => value.name));
      for (const value of expected.getValues()) {
        if (!values.has(value.name)) differences.push(`Enum value '${expected.name}.${value.name}' is missing.`);
      }
    }

    if (isUnionType(expected) && isUnionType(found)) {
      const members = new Set(found.getTypes().map((member) => member.name));
      for (const member of expected.getTypes()) {
        if (!members.has(member.name)) differences.push(`Union '${expected.name}' lacks member '${member.name}'.`);
      }
    }
  }
  return differences;
}
