// The custom scalars. DateTime and Decimal are exact by contract (toISOString text; decimal text
// passed through unchanged); JSON is graphql-scalars' well-known implementation.
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { UpstreamBadResponseError } from '../errors.js';
import { READ_INVENTORY } from '../partner/inventory.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;

export const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize(value) {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
    throw new GraphQLError('DateTime can only serialize a valid Date.');
  },
  parseValue(value) {
    return parseDateTime(value);
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be an ISO-8601 string.', { nodes: ast });
    return parseDateTime(ast.value);
  },
});

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) {
    throw new GraphQLError(`DateTime must be an ISO-8601 string such as 2026-01-01T00:00:00.000Z.`);
  }
  return date;
}

export const Decimal = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  serialize(value) {
    // A number here would already have been through a float: refuse rather than print it.
    if (typeof value === 'string' && DECIMAL.test(value)) return value;
    throw new UpstreamBadResponseError(READ_INVENTORY, `a decimal field holds ${describe(value)}, not decimal text`);
  },
  parseValue(value) {
    if (typeof value === 'string' && DECIMAL.test(value)) return value;
    throw new GraphQLError('Decimal must be decimal text such as "12.50".');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING && DECIMAL.test(ast.value)) return ast.value;
    throw new GraphQLError('Decimal must be decimal text such as "12.50".', { nodes: ast });
  },
});

export const JSON = GraphQLJSON;

/** Unix seconds from the partner API to a Date; a non-number is the partner's fault. */
export function fromUnixSeconds(value: unknown, field: string): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value * 1000);
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new UpstreamBadResponseError(READ_INVENTORY, `'${field}' holds ${describe(value)}, not Unix seconds`);
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
