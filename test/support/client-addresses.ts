// Clients the service tells apart by their address: each sends from a loopback address of its
// own (Linux answers for all of 127.0.0.0/8), over a connection pool of its own, to a real server
// on 127.0.0.1. Used by the rate-limit tests, whose shares are per address and per token.
import { print } from 'graphql';
import { Agent, fetch } from 'undici';
import { vi, expect } from 'vitest';
import { CalculateListingFeeDocument } from '../generated/graphql.js';
import type { GraphQLResponse, Testkit } from './testkit.js';

const agents = new Map<string, Agent>();

/** Posts a GraphQL body to the kit from `address`, with the token as Bearer (none when null). */
export async function postFrom(kit: Testkit, address: string, body: unknown, token: string | null): Promise<{ status: number; result: GraphQLResponse<unknown> }> {
  let agent = agents.get(address);
  if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
  if (token) kit.addSecret(token);
  const response = await fetch(kit.graphqlUrl, {
    method: 'POST',
    dispatcher: agent,
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, result: (await response.json()) as GraphQLResponse<unknown> };
}

/** One listing fee of one item, asked from `address`; answers 'ok' or the error codes. */
export async function feeFrom(kit: Testkit, address: string, token: string | null, price = 250): Promise<string> {
  const { result } = await postFrom(kit, address, { query: print(CalculateListingFeeDocument), variables: { input: { items: [{ price }] } } }, token);
  return (result.errors ?? []).map((error) => error.extensions?.code).join() || 'ok';
}

export async function closeClientAddresses(): Promise<void> {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
  agents.clear();
}

export interface FloodOutcome {
  /** New users (tokens the partner has not accepted yet) whose one fee was answered. */
  usersServed: number;
  /** Fees the flooding client got answered, and how many it asked. */
  floodServed: number;
  floodSent: number;
}

/**
 * One client keeps asking fees from one address, half of them without a token and half with a
 * new made-up token each, on four lanes at once; meanwhile `users` new users, each from an address
 * of its own with a token of its own, ask one fee each, over the kits in turn.
 */
export async function newUsersDuringAFeeFlood(kits: Testkit[], users: number): Promise<FloodOutcome> {
  const flooder = '127.0.0.2';
  let flooding = true;
  let floodServed = 0;
  let floodSent = 0;
  let floodRefused = 0;
  const lane = async (index: number) => {
    for (let sent = 0; flooding; sent++) {
      const token = sent % 2 === 0 ? null : `made-up-flood-${index}-${sent}`;
      const outcome = await feeFrom(kits[sent % kits.length]!, flooder, token);
      floodSent++;
      if (outcome === 'ok') floodServed++;
      else if (outcome === 'RATE_LIMITED') floodRefused++;
    }
  };
  const lanes = [0, 1, 2, 3].map(lane);
  let usersServed = 0;
  try {
    // The users come once the flood has spent what it may.
    await vi.waitFor(() => expect(floodRefused).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
    for (let user = 0; user < users; user++) {
      const outcome = await feeFrom(kits[user % kits.length]!, `127.0.${1 + Math.floor(user / 200)}.${10 + (user % 200)}`, `new-user-${user}`);
      if (outcome === 'ok') usersServed++;
    }
  } finally {
    flooding = false;
    await Promise.all(lanes);
  }
  return { usersServed, floodServed, floodSent };
}
