// The partner API's field lists, read from the document itself (docs/partner-api.md, the committed
// copy of the partner's document), and the golden answers written from it (test/fixtures/partner/),
// so that tests of the wire format take their expectations from the upstream's words, not from this
// project's own types or simulator.
import { readFileSync } from 'node:fs';

const DOC = readFileSync(new URL('../../docs/partner-api.md', import.meta.url), 'utf8');

/** The text of the section that starts with the heading `heading` (up to the next heading). */
function section(heading: string): string {
  const start = DOC.indexOf(`${heading}`);
  if (start === -1) throw new Error(`partner-api.md has no section '${heading}'`);
  const rest = DOC.slice(start + heading.length);
  const end = rest.search(/^#{2,3} /m);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The first column of a section's (first) table: its field names, with their second column. */
function tableFields(heading: string): Array<{ name: string; type: string }> {
  return section(heading)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1) // the header row
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => ({ name: cells[1]!, type: cells[2]! }));
}

export interface DocField {
  name: string;
  /** The document's type column, e.g. `string`, `integer (Unix time in seconds)`, `null-valued in observation`. */
  type: string;
}

export const partnerDoc = {
  /** 2.1 `TradeInventoryResponseDTO`, the inventory read's `data`. */
  inventoryResponse: tableFields('### 2.1 '),
  /** 2.2 `TradeInventoryItem`: 30 fields. */
  inventoryItem: tableFields('### 2.2 '),
  /** 2.3 itemInfo: all strings (`itemName` null in observation). */
  itemInfo: section('### 2.3 ')
    .split('\n')
    .filter((line) => line.includes(', '))
    .flatMap((line) => line.replace(/\.$/, '').split(', '))
    .map((name): DocField => ({ name: name.replace(/\(.*\)/, '').trim(), type: 'string' })),
  /** 2.4 assetInfo. */
  assetInfo: tableFields('### 2.4 '),
  /** 2.5 listing fee request item. */
  listingFeeRequestItem: tableFields('### 2.5 '),
  /** 2.6 listing fee result item. */
  listingFeeResultItem: tableFields('### 2.6 '),
  /** Part 7: the envelope of every response. */
  envelope: tableFields('## 7. Errors'),
};

/**
 * Whether `value` has the type the document's type column names: `string`, `integer (Unix time in
 * seconds)`, `object or array`, `null-valued in observation`... Every field may be null (2.2: "all
 * fields are optional and may be null"), so null always fits.
 */
export function hasDocType(value: unknown, type: string): boolean {
  if (value === null) return true;
  return type.split(' or ').some((alternative) => {
    if (alternative.startsWith('null')) return false;
    if (alternative.startsWith('string')) return typeof value === 'string';
    if (alternative.startsWith('integer')) return Number.isSafeInteger(value);
    if (alternative.startsWith('number')) return typeof value === 'number';
    if (alternative.startsWith('boolean')) return typeof value === 'boolean';
    if (alternative.startsWith('object')) return typeof value === 'object' && !Array.isArray(value);
    if (alternative.startsWith('array')) return Array.isArray(value);
    throw new Error(`no check for the document's type '${alternative}'`);
  });
}

export type Json = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/partner/${name}.json`, import.meta.url), 'utf8')) as Json;

/** The golden answers of test/fixtures/partner/ (see its README.md), freshly parsed. */
export const partnerFixtures = {
  inventoryPage: fixture('inventory-page') as Json & { data: Json & { list: Json[] } },
  envelopeError: fixture('envelope-error'),
  listingFee: fixture('listing-fee') as Json & { data: Json[] },
  listingFeeRequest: fixture('listing-fee-request') as Json & { dataList: Json[] },
};
