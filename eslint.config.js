// ESLint 9 flat config: TypeScript sources, and the GraphQL schema with @graphql-eslint's
// recommended schema rules and its Relay rules.
import js from '@eslint/js';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'src/generated/', 'test/generated/', 'coverage/', 'test-results/'] },
  {
    files: ['**/*.ts', '**/*.js'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['schema/**/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: { schema: 'schema/*.graphql' } },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlPlugin.configs['flat/schema-recommended'].rules,
      ...graphqlPlugin.configs['flat/schema-relay'].rules,
      // The contract's connections page forward only (the partner API does), so `last`/`before`
      // are not offered; and it has `nodes` beside `edges`, as GitHub's and Shopify's schemas do.
      '@graphql-eslint/relay-arguments': ['error', { includeBoth: false }],
      '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
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
);
