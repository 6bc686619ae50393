// The part of Kustomize the manifests in deploy/kubernetes/ use, applied here so that the tests
// read the objects an overlay builds without the kustomize binary: resources (files and
// directories), namespace, images, labels, configMapGenerator (files) and JSON 6902 patches
// (applied with fast-json-patch). A field of kustomization.yaml outside that set fails the build,
// so that a manifest change this reader would not see is noticed rather than skipped.
// Unlike kustomize, generated ConfigMaps keep their plain name (no content-hash suffix).
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import fastJsonPatch, { type Operation } from 'fast-json-patch';
import { parse, parseAllDocuments } from 'yaml';

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  configMapGenerator?: Array<{ name: string; files: string[] }>;
  patches?: Array<{ target: { kind: string; name: string }; patch?: string; path?: string }>;
}

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'namespace', 'resources', 'images', 'labels', 'configMapGenerator', 'patches']);

/** The objects `kustomize build <dir>` makes, as this reader understands it. */
export function kustomizeBuild(dir: string): KubernetesObject[] {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const unknown = Object.keys(kustomization).filter((field) => !KNOWN_FIELDS.has(field));
  if (unknown.length > 0) throw new Error(`${dir}/kustomization.yaml: fields this reader does not apply: ${unknown.join(', ')}`);
  const objects: KubernetesObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    objects.push(...(statSync(path).isDirectory() ? kustomizeBuild(path) : readObjects(path)));
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    const data = Object.fromEntries(generator.files.map((file) => [basename(file), readFileSync(join(dir, file), 'utf8')]));
    objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data });
  }
  for (const { pairs, includeSelectors, includeTemplates } of kustomization.labels ?? []) {
    if (includeSelectors || includeTemplates) throw new Error(`${dir}: labels into selectors or templates are not applied here`);
    for (const object of objects) object.metadata.labels = { ...object.metadata.labels, ...pairs };
  }
  for (const { target, patch, path } of kustomization.patches ?? []) {
    const operations = parse(path === undefined ? patch! : readFileSync(join(dir, path), 'utf8')) as Operation[];
    if (!Array.isArray(operations)) throw new Error(`${dir}: only JSON 6902 patches (a list of operations) are applied here`);
    const matches = objects.filter((object) => object.kind === target.kind && object.metadata.name === target.name);
    if (matches.length === 0) throw new Error(`${dir}: a patch targets ${target.kind}/${target.name}, which no resource is`);
    for (const object of matches) fastJsonPatch.applyPatch(object, operations, true, true);
  }
  for (const image of kustomization.images ?? []) {
    for (const container of containersOf(objects)) {
      const [name, tag] = splitImage(container.image);
      if (name !== image.name) continue;
      container.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
    }
  }
  if (kustomization.namespace !== undefined) {
    for (const object of objects) object.metadata.namespace = kustomization.namespace;
  }
  return objects;
}

function readObjects(path: string): KubernetesObject[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((document) => {
    if (document.errors.length > 0) throw new Error(`${path}: ${document.errors[0]!.message}`);
    return document.toJS() as KubernetesObject;
  }).filter((object) => object !== null);
}

interface Container {
  name: string;
  image: string;
}

/** Every container of every workload's pod template. */
export function containersOf(objects: readonly KubernetesObject[]): Container[] {
  return objects.flatMap((object) => {
    const pod = (object.spec as { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } } | undefined)?.template?.spec;
    return [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])];
  });
}

function splitImage(image: string): [string, string] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, 'latest'];
}
