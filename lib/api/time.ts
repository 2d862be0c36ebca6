/** `metav1.Time` as Kubernetes serializes it: RFC 3339 in UTC, whole seconds (`2024-05-01T10:00:00Z`). */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** {@link rfc3339} of a time given as text; text that does not parse is returned as it is. */
export function rfc3339Text(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : rfc3339(ms);
}
