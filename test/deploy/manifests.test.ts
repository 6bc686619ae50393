// The Kubernetes manifests of deploy/kubernetes/, checked rather than only written: every object of
// the base and of the production overlay validates against the Kubernetes API schema
// (kubernetes-models, and the Prometheus Operator's for ServiceMonitor and PrometheusRule), and
// agrees with the service: the variables it reads, the paths and port it answers (asked of a
// running service), its heap flags, its drain, its user, and the alert rules of ops/prometheus/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayConfig as repositoryGatewayConfig, PROPAGATED_HEADERS } from '../../gateway.config.js';
import { CACHE_HEAP_FACTOR, CONFIG_VARIABLES, loadConfig } from '../../src/config.js';
import { PROMETHEUS_RULE_PATH, renderPrometheusRule } from '../../deploy/prometheus-rule.js';
import { composeSupergraph, loadSubgraphSdl, readSupergraphConfig } from '../../src/federation/compose.js';
import { SHUTDOWN_GRACE_MS, TRACING_FLUSH_MS } from '../../src/tunables.js';
import { productionCommand } from '../support/production-command.js';
import { startTestkit, type Testkit } from '../support/testkit.js';
import { gatewayConfig as clusterGatewayConfig, PROPAGATED_HEADERS as CLUSTER_HEADERS } from '../../deploy/kubernetes/base/gateway/gateway.config.js';
import { kustomizeBuild, type KubernetesObject } from './kustomize.js';

const ROOT = join(import.meta.dirname, '../..');
const BASE = join(ROOT, 'deploy/kubernetes/base');
const PRODUCTION = join(ROOT, 'deploy/kubernetes/overlays/production');
const MiB = 2 ** 20;

// The API schema of each kind the manifests hold; a kind outside this list fails the test.
const MODELS: Record<string, new (object: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ConfigMap': ConfigMap,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
};

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  ports?: Array<{ name?: string; containerPort: number }>;
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } };
  terminationGracePeriodSeconds?: number;
  topologySpreadConstraints?: Array<{ topologyKey: string; labelSelector: { matchLabels: Record<string, string> } }>;
  volumes?: Array<{ name: string; emptyDir?: object }>;
}
interface Workload extends KubernetesObject {
  spec: {
    selector: { matchLabels: Record<string, string> };
    strategy?: { type: string; rollingUpdate?: { maxSurge: number | string; maxUnavailable: number | string } };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

const find = <T extends KubernetesObject>(objects: KubernetesObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind}/${name}`);
  return found as T;
};
const workloads = (objects: KubernetesObject[]) => objects.filter((object): object is Workload => object.kind === 'Deployment');
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** A Kubernetes memory quantity (`2Gi`, `512Mi`, `1G`, bytes) in bytes. */
function bytesOf(quantity: string): number {
  const units: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };
  const match = /^(\d+(?:\.\d+)?)([KMGT]i|[kMGT])?$/.exec(quantity);
  if (match === null) throw new Error(`not a memory quantity: ${quantity}`);
  return Number(match[1]) * units[match[2] ?? '']!;
}

/** A flag's value in MB from start:prod's Node flags (`--max-old-space-size=1536` gives 1536). */
function nodeFlagMb(flag: string): number {
  const args = productionCommand(ROOT)!.nodeArgs;
  const arg = args.find((candidate) => candidate.startsWith(`--${flag}=`));
  if (arg === undefined) throw new Error(`start:prod has no --${flag}`);
  return Number(arg.split('=')[1]);
}

/** The service's environment as the Deployment sets it, a Secret's value standing in as a placeholder (32 characters, as long a secret as any setting asks). */
function environmentOf(container: Container): Record<string, string> {
  return Object.fromEntries((container.env ?? []).map(({ name, value, valueFrom }) => [name, valueFrom?.secretKeyRef ? 'placeholder-from-a-secret-32-chs' : value!]));
}

for (const [overlay, dir] of [
  ['base', BASE],
  ['production overlay', PRODUCTION],
] as const) {
  describe(`deploy/kubernetes ${overlay}`, () => {
    const objects = kustomizeBuild(dir);

    it('every object validates against the Kubernetes API schema of its kind', () => {
      expect(objects.length).toBeGreaterThan(10);
      for (const object of objects) {
        const Model = MODELS[`${object.apiVersion}/${object.kind}`];
        expect(Model, `${object.apiVersion} ${object.kind} has no schema here`).toBeDefined();
        expect(() => new Model!(object as never).validate(), `${object.kind}/${object.metadata.name}`).not.toThrow();
      }
    });

    it('every workload runs non-root on a read-only root, without privilege escalation or capabilities, under RuntimeDefault seccomp', () => {
      for (const workload of workloads(objects)) {
        const pod = workload.spec.template.spec;
        const where = workload.metadata.name;
        expect(pod.securityContext?.runAsNonRoot, where).toBe(true);
        expect(pod.securityContext?.runAsUser, where).toBeGreaterThan(0);
        expect(pod.securityContext?.seccompProfile?.type, where).toBe('RuntimeDefault');
        for (const container of pod.containers) {
          expect(container.securityContext?.readOnlyRootFilesystem, where).toBe(true);
          expect(container.securityContext?.allowPrivilegeEscalation, where).toBe(false);
          expect(container.securityContext?.capabilities?.drop, where).toEqual(['ALL']);
          expect(container.resources?.limits?.memory, where).toBeDefined();
          expect(container.resources?.requests?.cpu, where).toBeDefined();
          // Each writable path is a volume (an emptyDir), named in the manifest.
          for (const mount of container.volumeMounts ?? []) {
            expect(pod.volumes?.some((volume) => volume.name === mount.name), `${where}: ${mount.name}`).toBe(true);
          }
        }
      }
    });

    it('the service runs as the Containerfile user, on the port it is told, with PORT the probes and the Service use', () => {
      const deployment = find<Workload>(objects, 'Deployment', 'tradegraph');
      const [container] = deployment.spec.template.spec.containers;
      const containerfile = readFileSync(join(ROOT, 'Containerfile'), 'utf8');
      const [, user, group] = /^USER (\d+):(\d+)$/m.exec(containerfile)!;
      expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsUser: Number(user), runAsGroup: Number(group) });
      const port = container!.ports!.find((candidate) => candidate.name === 'http')!.containerPort;
      expect(environmentOf(container!).PORT).toBe(String(port));
      for (const probe of [container!.startupProbe, container!.readinessProbe, container!.livenessProbe]) {
        expect(probe?.httpGet?.port).toBe('http');
      }
      const service = find<KubernetesObject & { spec: { selector: Record<string, string>; ports: Array<{ targetPort: string }> } }>(objects, 'Service', 'tradegraph');
      expect(matches(service.spec.selector, deployment.spec.template.metadata.labels)).toBe(true);
      expect(service.spec.ports.map((servicePort) => servicePort.targetPort)).toEqual(['http']);
    });

    it('every variable the service is given is one it reads, and the service accepts their values', () => {
      const container = find<Workload>(objects, 'Deployment', 'tradegraph').spec.template.spec.containers[0]!;
      const env = environmentOf(container);
      for (const name of Object.keys(env)) expect(CONFIG_VARIABLES, name).toContain(name);
      // The heap limit the Containerfile gives Node: the in-process cache budget is checked against it.
      const config = loadConfig(env, nodeFlagMb('max-old-space-size') * MiB);
      expect(config.production).toBe(true);
      expect(config.partnerApiUrl).toMatch(/^https:\/\//);
      // The app-key comes from a Secret; no credential is written into the manifest.
      expect(container.env!.find((variable) => variable.name === 'PARTNER_APP_KEY')?.valueFrom?.secretKeyRef).toEqual({ name: 'tradegraph-partner', key: 'app-key' });
      expect(container.env!.find((variable) => variable.name === 'REDIS_VALUE_KEY')?.valueFrom?.secretKeyRef).toEqual({ name: 'tradegraph-redis', key: 'value-key' });
      // Behind the ingress controller, whose X-Forwarded-For entry the gateway passes on.
      expect(config.rateLimit?.proxyHops).toBe(1);
      expect(CLUSTER_HEADERS).toContain('x-forwarded-for');
    });

    it('the memory limit holds the heap limit, the young generation, room outside the heap and any in-process cache', () => {
      const container = find<Workload>(objects, 'Deployment', 'tradegraph').spec.template.spec.containers[0]!;
      const config = loadConfig(environmentOf(container), nodeFlagMb('max-old-space-size') * MiB);
      const limit = bytesOf(container.resources!.limits!.memory!);
      const heap = nodeFlagMb('max-old-space-size') * MiB;
      // V8's young generation is three semi-spaces; Node's code, buffers and sockets live outside the heap.
      const youngGeneration = 3 * nodeFlagMb('max-semi-space-size') * MiB;
      const outsideHeap = 256 * MiB;
      // The in-process cache lives inside the heap limit; without Redis it must fit there too.
      const inProcessCache = config.responseCacheTtlMs > 0 && config.redisUrl === null && config.responseCacheRedisUrl === null;
      const cacheHeap = inProcessCache ? config.responseCacheMaxBytes * CACHE_HEAP_FACTOR : 0;
      expect(cacheHeap).toBeLessThanOrEqual(heap / 2);
      expect(limit).toBeGreaterThanOrEqual(heap + youngGeneration + outsideHeap);
      expect(bytesOf(container.resources!.requests!.memory!)).toBe(limit);
    });

    it('rolls out without dropping requests: surge, no unavailable replica, preStop and a grace period longer than the drain', () => {
      const deployment = find<Workload>(objects, 'Deployment', 'tradegraph');
      expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
      const pod = deployment.spec.template.spec;
      const preStop = pod.containers[0]!.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(preStop).toBeGreaterThan(0);
      expect(pod.terminationGracePeriodSeconds! * 1000).toBeGreaterThan(preStop * 1000 + SHUTDOWN_GRACE_MS + TRACING_FLUSH_MS);
      // Spread over zones and nodes.
      expect(pod.topologySpreadConstraints?.map((constraint) => constraint.topologyKey)).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      for (const constraint of pod.topologySpreadConstraints!) {
        expect(matches(constraint.labelSelector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
      }
    });

    it('the disruption budget, the autoscaler, the network policy and the ServiceMonitor point at the replicas', () => {
      const deployment = find<Workload>(objects, 'Deployment', 'tradegraph');
      const podLabels = deployment.spec.template.metadata.labels;
      const pdb = find<KubernetesObject & { spec: { maxUnavailable: number; selector: { matchLabels: Record<string, string> } } }>(objects, 'PodDisruptionBudget', 'tradegraph');
      expect(matches(pdb.spec.selector.matchLabels, podLabels)).toBe(true);
      expect(pdb.spec.maxUnavailable).toBe(1);
      const hpa = find<KubernetesObject & { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number } }>(objects, 'HorizontalPodAutoscaler', 'tradegraph');
      expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'tradegraph' });
      // Two replicas at least, so that the disruption budget lets a node drain.
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(deployment.spec).not.toHaveProperty('replicas');

      // Only the gateway's pods (and the scraper's namespace) reach the replicas.
      const gatewayLabels = find<Workload>(objects, 'Deployment', 'tradegraph-gateway').spec.template.metadata.labels;
      type Peer = { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: { matchLabels: Record<string, string> } };
      const policy = find<KubernetesObject & { spec: { podSelector: { matchLabels: Record<string, string> }; ingress: Array<{ from: Peer[] }> } }>(objects, 'NetworkPolicy', 'tradegraph');
      expect(matches(policy.spec.podSelector.matchLabels, podLabels)).toBe(true);
      const peers = policy.spec.ingress.flatMap((rule) => rule.from);
      const podPeers = peers.filter((peer) => peer.podSelector !== undefined);
      expect(podPeers).toHaveLength(1);
      expect(matches(podPeers[0]!.podSelector!.matchLabels, gatewayLabels)).toBe(true);
      expect(peers.filter((peer) => peer.podSelector === undefined)).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);

      const monitor = find<KubernetesObject & { spec: { selector: { matchLabels: Record<string, string> }; endpoints: Array<{ port: string; path: string }> } }>(objects, 'ServiceMonitor', 'tradegraph');
      const service = find<KubernetesObject & { metadata: { labels: Record<string, string> }; spec: { ports: Array<{ name: string }> } }>(objects, 'Service', 'tradegraph');
      expect(matches(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
      expect(monitor.spec.endpoints).toMatchObject([{ port: 'http', path: '/metrics' }]);
      expect(service.spec.ports.map((port) => port.name)).toContain('http');
    });

    it('counts go to a Redis that never evicts, answers to one that may', () => {
      const env = environmentOf(find<Workload>(objects, 'Deployment', 'tradegraph').spec.template.spec.containers[0]!);
      const policyOf = (url: string) => {
        const service = find<KubernetesObject & { spec: { selector: Record<string, string> } }>(objects, 'Service', new URL(url).hostname);
        const redis = workloads(objects).find((workload) => matches(service.spec.selector, workload.spec.template.metadata.labels))!;
        const command = redis.spec.template.spec.containers[0]!.command!;
        return command[command.indexOf('--maxmemory-policy') + 1];
      };
      expect(policyOf(env.REDIS_URL!)).toBe('noeviction');
      expect(policyOf(env.RESPONSE_CACHE_REDIS_URL!)).toBe('allkeys-lru');
    });
  });
}

describe('deploy/kubernetes production overlay', () => {
  it('names the pushed image, its namespace and the partner, and scales further', () => {
    const objects = kustomizeBuild(PRODUCTION);
    for (const object of objects) expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe('tradegraph');
    const deployment = find<Workload>(objects, 'Deployment', 'tradegraph');
    const container = deployment.spec.template.spec.containers[0]!;
    expect(container.image).toBe('registry.example.com/platform/tradegraph:0.1.0');
    expect(environmentOf(container).PARTNER_API_URL).toBe('https://partner-api.example.com');
    expect(find<KubernetesObject & { spec: { minReplicas: number } }>(objects, 'HorizontalPodAutoscaler', 'tradegraph').spec.minReplicas).toBe(3);
  });
});

describe('the manifests made from the repository', () => {
  it('the PrometheusRule is the rules of ops/prometheus/rules/ (npm run deploy:rules)', () => {
    expect(readFileSync(PROMETHEUS_RULE_PATH, 'utf8')).toBe(renderPrometheusRule());
  });

  it("the gateway's supergraph is composed from schema/ with the service's in-cluster URL (npm run deploy:supergraph)", async () => {
    const config = readSupergraphConfig(join(BASE, 'gateway/supergraph.config.json'));
    const subgraphs = await Promise.all(config.subgraphs.map(async (source) => ({ ...source, sdl: await loadSubgraphSdl(source) })));
    expect(readFileSync(config.output, 'utf8')).toBe(`${composeSupergraph(subgraphs)}\n`);
    const service = find<KubernetesObject & { spec: { ports: Array<{ port: number }> } }>(kustomizeBuild(BASE), 'Service', 'tradegraph');
    expect(config.subgraphs.map((subgraph) => subgraph.url)).toEqual([`http://tradegraph:${service.spec.ports[0]!.port}/graphql`]);
  });

  it("the gateway's config is the repository's, and passes X-Forwarded-For on as well", () => {
    // Everything but the request headers' list, functions compared by their text: a copy.
    const comparable = (config: object): unknown =>
      JSON.parse(JSON.stringify(config, (key, value: unknown) => (key === 'fromClientToSubgraphs' ? undefined : typeof value === 'function' ? String(value) : value)));
    expect(comparable(clusterGatewayConfig)).toEqual(comparable(repositoryGatewayConfig));
    expect([...CLUSTER_HEADERS]).toEqual([...PROPAGATED_HEADERS, 'x-forwarded-for']);
    const headers = Object.fromEntries(CLUSTER_HEADERS.map((name) => [name, `value of ${name}`]));
    const request = new Request('http://gateway/graphql', { headers: { ...headers, cookie: 'not passed' } });
    const propagate = clusterGatewayConfig.propagateHeaders!.fromClientToSubgraphs as (payload: { request: Request }) => Record<string, string>;
    // And the CSRF header the facade asks of the GET that reads a subscription over SSE.
    expect(propagate({ request })).toEqual({ ...headers, 'x-graphql-csrf': '1' });
  });
});

describe('the probes, asked of a running service', () => {
  let kit: Testkit;
  let partnerDown: Testkit;
  beforeAll(async () => {
    kit = await startTestkit();
    // A service whose partner does not answer: what a probe sees during a partner outage.
    partnerDown = await startTestkit({ config: { partnerApiUrl: 'http://127.0.0.1:9', partnerOpenApiUrl: 'http://127.0.0.1:9' } });
  });
  afterAll(async () => {
    await kit?.close();
    await partnerDown?.close();
  });

  it('every probe path the service Deployment names answers 200, and the liveness, startup and readiness ones whatever the partner', async () => {
    const [container] = find<Workload>(kustomizeBuild(PRODUCTION), 'Deployment', 'tradegraph').spec.template.spec.containers;
    const probes = { startup: container!.startupProbe!, readiness: container!.readinessProbe!, liveness: container!.livenessProbe! };
    for (const [name, probe] of Object.entries(probes)) {
      const path = probe.httpGet!.path;
      expect((await fetch(`${kit.url}${path}`)).status, `${name} ${path}`).toBe(200);
      // A partner outage must not restart the replicas or take every one out of rotation.
      expect((await fetch(`${partnerDown.url}${path}`)).status, `${name} ${path} with the partner down`).toBe(200);
    }
    // /readiness is the partner check (deploy gates, alerts): it does tell the outage.
    expect((await fetch(`${partnerDown.url}/readiness`)).status).toBe(503);
  });

  it("the ServiceMonitor's path is the service's metrics", async () => {
    const monitor = find<KubernetesObject & { spec: { endpoints: Array<{ path: string }> } }>(kustomizeBuild(BASE), 'ServiceMonitor', 'tradegraph');
    const response = await fetch(`${kit.url}${monitor.spec.endpoints[0]!.path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('tradegraph_');
  });
});
