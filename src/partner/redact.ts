// Keeps secrets (access tokens, the merchant app-key) out of anything the facade passes on: an
// upstream error's fields may echo what the call sent.

const MASK = '[redacted]';

/** Returns `value` with every occurrence of a secret in its strings replaced, at any depth. */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const active = secrets.filter((secret) => secret.length > 0);
  if (active.length === 0) return value;
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') {
      return active.reduce((text, secret) => text.split(secret).join(MASK), node);
    }
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, visit(child)]));
    }
    return node;
  };
  return visit(value) as T;
}
