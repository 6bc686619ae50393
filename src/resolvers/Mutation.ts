// Root mutation fields.
import { parseListingFeeInput } from '../listing-fee/input.js';
import type { MutationResolvers } from '../generated/resolvers-types.js';

export const Mutation: MutationResolvers = {
  calculateListingFee: async (_parent, { input }, { loaders }) => {
    const keys = parseListingFeeInput(input);
    // The loader batches (and deduplicates) the items; `Promise.all` keeps input order.
    return { fees: await Promise.all(keys.map((key) => loaders.listingFee.load(key))) };
  },
};
