// The partner API as the rest of the facade sees it: its two operations over one client per
// upstream base (the partner base for inventories, the open-API base for listing fees), and what
// the partner's answers prove about the callers (accepted-credentials.ts).
import { AcceptedCredentials, type CredentialDigest } from './accepted-credentials.js';
import type { CallerDomains } from './breaker.js';
import { PartnerClient, type PartnerClientOptions } from './client.js';
import { READ_INVENTORY, readInventoryPage, type ReadInventoryParams } from './inventory.js';
import { CALCULATE_LISTING_FEE, calculateListingFees, type CalculateListingFeesParams } from './listing-fee.js';
import type { TradeInventoryResponseDTO, ListingFeeResultDTO } from './models.js';
import type { UpstreamProbeResult } from './observer.js';
import type { SharedRedis } from '../redis.js';
import { provenCallerOf, UNPROVEN } from '../credentials.js';

export interface PartnerApiOptions extends Omit<PartnerClientOptions, 'baseUrl' | 'secrets'> {
  baseUrl: string;
  openApiUrl: string;
  /** The merchant app-key sent with listing-fee calls; from configuration only. */
  appKey: string | null;
  /** The fleet's Redis: the record of accepted credentials is shared there. */
  redis?: SharedRedis | null;
}

export class PartnerApi {
  /** Credentials the partner answered an inventory read for; read by the rate limit too. */
  readonly accepted: AcceptedCredentials;
  private readonly partnerClient: PartnerClient;
  private readonly openApiClient: PartnerClient;
  private readonly appKey: string | null;

  constructor({ baseUrl, openApiUrl, appKey, redis = null, ...clientOptions }: PartnerApiOptions) {
    this.accepted = new AcceptedCredentials({ redis });
    const secrets = appKey ? [appKey] : [];
    this.partnerClient = new PartnerClient({ ...clientOptions, secrets, baseUrl });
    this.openApiClient =
      openApiUrl === baseUrl ? this.partnerClient : new PartnerClient({ ...clientOptions, secrets, baseUrl: openApiUrl });
    this.appKey = appKey;
  }

  /** Reads a page with the caller's token; a page answered is the partner's acceptance of that token. */
  async readInventoryPage(
    params: Omit<ReadInventoryParams, 'caller'> & { credential: CredentialDigest },
  ): Promise<TradeInventoryResponseDTO> {
    const { credential, ...page } = params;
    const answered = await readInventoryPage(this.partnerClient, { ...page, caller: this.callerOf(credential) });
    this.accepted.accept(credential);
    return answered;
  }

  /** Fees are asked with the merchant key: the caller is told apart by its own token, once proven. */
  calculateListingFees(
    params: Omit<CalculateListingFeesParams, 'appKey' | 'caller'> & { credential: CredentialDigest | null },
  ): Promise<ListingFeeResultDTO[]> {
    const { credential, ...rest } = params;
    return calculateListingFees(this.openApiClient, {
      ...rest,
      appKey: this.appKey,
      caller: this.callerOf(credential),
    });
  }

  /**
   * A caller as the breaker counts it: its faults against the caller once proven (provenCallerOf),
   * its connections against its credential (or the one unproven caller).
   */
  private callerOf(credential: CredentialDigest | null): CallerDomains {
    return {
      fault: () => provenCallerOf(credential, this.accepted),
      connection: credential ?? UNPROVEN,
    };
  }

  /** Probes each distinct upstream base (see PartnerClient.probe); for GET /readiness. */
  probeUpstreams(timeoutMs: number): Promise<UpstreamProbeResult[]> {
    return Promise.all(
      this.upstreams().map(async ({ upstream, client }) => ({
        upstream,
        ...(await client.probe(timeoutMs)),
        circuit: client.circuitState,
      })),
    );
  }

  /** Each distinct upstream base's circuit breaker state, by name. */
  circuitStates(): { upstream: string; state: string }[] {
    return this.upstreams().map(({ upstream, client }) => ({ upstream, state: client.circuitState }));
  }

  private upstreams(): { upstream: string; client: PartnerClient }[] {
    return this.openApiClient === this.partnerClient
      ? [{ upstream: 'partner', client: this.partnerClient }]
      : [
          { upstream: 'partner', client: this.partnerClient },
          { upstream: 'openApi', client: this.openApiClient },
        ];
  }

  async close(): Promise<void> {
    await Promise.all(this.upstreams().map(({ client }) => client.close()));
  }
}

/** Every operation the partner clients call: the `operation` label values the metrics know in advance. */
export const PARTNER_OPERATIONS = [READ_INVENTORY, CALCULATE_LISTING_FEE] as const;

export type { OperationDeadline } from './call.js';
export type { PartnerCallEvent, PartnerCallInfo, PartnerCallObserver, UpstreamProbeResult } from './observer.js';
