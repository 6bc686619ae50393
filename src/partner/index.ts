// The partner API as the rest of the facade sees it: its two operations over one client per
// upstream base (the partner base for inventories, the open-API base for listing fees).
import { PartnerClient, type PartnerClientOptions } from './client.js';
import { readInventoryPage, type ReadInventoryParams } from './inventory.js';
import { calculateListingFees, type CalculateListingFeesParams } from './listing-fee.js';
import type { TradeInventoryResponseDTO, ListingFeeResultDTO } from './models.js';
import type { UpstreamProbeResult } from './observer.js';

export interface PartnerApiOptions extends Omit<PartnerClientOptions, 'baseUrl' | 'secrets'> {
  baseUrl: string;
  openApiUrl: string;
  /** The merchant app-key sent with listing-fee calls; from configuration only. */
  appKey: string | null;
}

export class PartnerApi {
  private readonly partnerClient: PartnerClient;
  private readonly openApiClient: PartnerClient;
  private readonly appKey: string | null;

  constructor({ baseUrl, openApiUrl, appKey, ...clientOptions }: PartnerApiOptions) {
    const secrets = appKey ? [appKey] : [];
    this.partnerClient = new PartnerClient({ ...clientOptions, secrets, baseUrl });
    this.openApiClient =
      openApiUrl === baseUrl ? this.partnerClient : new PartnerClient({ ...clientOptions, secrets, baseUrl: openApiUrl });
    this.appKey = appKey;
  }

  readInventoryPage(params: ReadInventoryParams): Promise<TradeInventoryResponseDTO> {
    return readInventoryPage(this.partnerClient, params);
  }

  calculateListingFees(params: Omit<CalculateListingFeesParams, 'appKey'>): Promise<ListingFeeResultDTO[]> {
    return calculateListingFees(this.openApiClient, { ...params, appKey: this.appKey });
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

export type { OperationDeadline } from './client.js';
export type { ClientGoneSignal } from './abort-signal.js';
export { LightAbortSignal } from './abort-signal.js';
export type { PartnerCallEvent, PartnerCallInfo, PartnerCallObserver, UpstreamProbeResult } from './observer.js';
