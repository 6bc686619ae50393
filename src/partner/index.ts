// The partner API as the rest of the facade sees it: its two operations over one client per
// upstream base (the partner base for inventories, the open-API base for listing fees).
import type { Logger } from 'pino';
import { PartnerClient, type PartnerCallEvent } from './client.js';
import { readInventoryPage, type ReadInventoryParams } from './inventory.js';
import { calculateListingFees, type CalculateListingFeesParams } from './listing-fee.js';
import type { TradeInventoryResponseDTO, ListingFeeResultDTO } from './models.js';
import type { UpstreamProbeResult } from '../observability/readiness.js';

export interface PartnerApiOptions {
  baseUrl: string;
  openApiUrl: string;
  timeoutMs: number;
  /** The merchant app-key sent with listing-fee calls; from configuration only. */
  appKey: string | null;
  logger: Logger;
  onCall?: (event: PartnerCallEvent) => void;
  maxRetries?: number;
  breakerThreshold?: number;
  breakerHalfOpenAfterMs?: number;
}

export class PartnerApi {
  private readonly partnerClient: PartnerClient;
  private readonly openApiClient: PartnerClient;
  private readonly appKey: string | null;

  constructor(options: PartnerApiOptions) {
    const clientOptions = {
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      onCall: options.onCall,
      maxRetries: options.maxRetries,
      breakerThreshold: options.breakerThreshold,
      breakerHalfOpenAfterMs: options.breakerHalfOpenAfterMs,
    };
    this.partnerClient = new PartnerClient({ ...clientOptions, baseUrl: options.baseUrl });
    this.openApiClient =
      options.openApiUrl === options.baseUrl
        ? this.partnerClient
        : new PartnerClient({ ...clientOptions, baseUrl: options.openApiUrl });
    this.appKey = options.appKey;
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

export type { PartnerCallEvent } from './client.js';
