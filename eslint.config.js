// ESLint flat config: TypeScript sources, the GraphQL schema with @graphql-eslint's recommended
// schema rules and its Relay rules, and the operations (test/operations/, graphiql/) with its operation rules.
import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One graphql-config for both GraphQL blocks: @graphql-eslint loads it once per process, so the
// schema block must already name the documents the operations block needs.
// The service adds @defer and @stream to the schema at run time (src/plugins/defer-stream.ts, Yoga's
// own definitions); operations are checked against the schema they run on.
const INCREMENTAL_DIRECTIVES = `
  directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
  directive @stream(if: Boolean! = true, label: String, initialCount: Int = 0) on FIELD
`;
// The schema is read from codegen's merged print of schema/ (kept fresh by `.ci/run` before lint)
// rather than from schema/ itself: schema/ extends the schema with the federation @link, and on
// that @graphql-eslint 4.4 builds it with @apollo/subgraph's single-module call, which @apollo/subgraph
// 2.15 removed. The printed schema carries the same types and the federation directives' definitions.
const graphQLConfig = {
  schema: ['src/generated/schema.graphql', INCREMENTAL_DIRECTIVES],
  documents: ['test/operations/**/*.graphql', 'graphiql/*.graphql'],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'dist-*/', 'src/generated/', 'test/generated/', 'coverage/', 'test-results/'] },
  {
    files: ['**/*.ts', '**/*.js'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Promise misuse is the bug class a service of servers, pools and loaders is most prone to, and
    // the one tsc does not catch; these rules need type information.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // A function a reader can hold in mind: the composition root included (src/server.ts), which
    // composes parts built elsewhere rather than growing with each concern.
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
      // V8 makes such a function in the old generation, where what it captures outlives the
      // request that made it (docs/decisions/request-lifetimes.md; test/unit/request-lifetimes.test.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression[left.type='MemberExpression'][right.type=/^(ArrowFunctionExpression|FunctionExpression)$/]",
          message: 'V8 makes a function literal assigned to a property in the old generation, keeping all it captures until a full collection: bind it to a const first.',
        },
      ],
    },
  },
  {
    // The service's own functions, a screen each (issue 50); the simulator, a stand-in of the partner, keeps the 100 above.
    files: ['src/**/*.ts'],
    ignores: ['src/simulator/**'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    files: ['schema/**/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlPlugin.configs['flat/schema-recommended'].rules,
      ...graphqlPlugin.configs['flat/schema-relay'].rules,
      // The contract's connections page forward only (the partner API does), so `last`/`before`
      // are not offered; and it has `nodes` beside `edges`, as GitHub's and Shopify's schemas do.
      '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
      // Every public type, field, argument and input field is described (the contract's promise;
      // the recommended set asks it only of types and root fields).
      '@graphql-eslint/require-description': [
        'error',
        { types: true, rootField: true, FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true, DirectiveDefinition: true },
      ],
      // Mutations take one `input: <MutationName>Input!`, as calculateListingFee does.
      '@graphql-eslint/input-name': ['error', { checkInputType: true, caseSensitiveInputType: false }],
      // Objects without identity of their own (connection plumbing, payloads, the partner's nested
      // value objects) have no id to give.
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            types: ['PageInfo', 'ItemInfo', 'AssetInfo', 'ListingFee'],
            suffixes: ['Connection', 'Edge', 'Payload'],
          },
        },
      ],
    },
  },
  {
    // The operations front-end teams copy from: valid against the schema, named, and selecting
    // `id` wherever a type has one, which normalized caches (Apollo, urql Graphcache) need.
    files: ['test/operations/**/*.graphql', 'graphiql/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: graphqlPlugin.configs['flat/operations-recommended'].rules,
  },
);
