// Keeps secrets (access tokens, the merchant app-key) out of anything the facade passes on: an
// upstream error's fields may echo what the call sent, raw or in the encodings a URL, a form body
// or a header gives it (percent-encoding with '+' or '%20' for spaces, base64).

const MASK = '[redacted]';

/** Shorter fragments of an encoding are too likely to occur by chance to be masked. */
const MIN_FRAGMENT = 6;

/** Every form in which `secret` can appear in text the partner echoes back. */
function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const percent = encodeURIComponent(secret);
  forms.add(percent);
  forms.add(percent.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()));
  // application/x-www-form-urlencoded, as URLSearchParams writes a query string.
  forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  forms.add(percent.replace(/%20/g, '+'));
  for (const base64 of base64Forms(Buffer.from(secret, 'utf8'))) forms.add(base64);
  return [...forms].filter((form) => form.length >= Math.min(MIN_FRAGMENT, secret.length));
}

/**
 * base64 of the secret at each of the three byte alignments it can have inside a longer encoded
 * value (e.g. `Basic base64(user:secret)`): only the characters made of the secret's bits alone.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad), bytes]).toString('base64');
    const from = Math.ceil((8 * pad) / 6);
    const to = Math.floor((8 * (pad + bytes.length)) / 6);
    const core = encoded.slice(from, to);
    if (core.length >= MIN_FRAGMENT) {
      forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return forms;
}

/** Returns `value` with every form of every secret in its strings (keys included) replaced, at any depth. */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const forms = [...new Set(secrets.filter((secret) => secret.length > 0).flatMap(secretForms))]
    // Longest first, so that a form containing another is masked whole.
    .sort((a, b) => b.length - a.length);
  if (forms.length === 0) return value;
  const scrub = (text: string) => forms.reduce((result, form) => result.split(form).join(MASK), text);
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [scrub(key), visit(child)]));
    }
    return node;
  };
  return visit(value) as T;
}
