/** What Karmada's mutating webhooks need from an admission request to default an object. */

/** What defaulting needs from the request: a uid source, the request time and the operation. */
export interface KarmadaDefaultingContext {
  /** A fresh UUID (Karmada: `uuid.New()`), for permanent ids. */
  newUid: () => string;
  /** The request time, RFC 3339 (taints' `timeAdded`). */
  now: string;
  operation: 'CREATE' | 'UPDATE';
}
