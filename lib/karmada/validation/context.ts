/** What Karmada's mutating webhooks need from an admission request to default an object. */

/** What defaulting needs from the request: a uid source, the request time and the operation. */
export interface KarmadaDefaultingContext {
  /** A fresh UUID (Karmada: `uuid.New()`), for permanent ids. */
  newUid: () => string;
  /** The request time, RFC 3339 (taints' `timeAdded`). */
  now: string;
  operation: 'CREATE' | 'UPDATE';
  /**
   * The seeds' `--default-not-ready-toleration-seconds` / `--default-unreachable-toleration-seconds`:
   * placements without a NoExecute toleration for those taints get one (absent: none are added).
   */
  defaultTolerationSeconds?: { notReady: number; unreachable: number };
}

/** What Karmada's admission takes from its flags. */
export interface KarmadaAdmissionOptions {
  /** See {@link KarmadaDefaultingContext.defaultTolerationSeconds}. */
  defaultTolerationSeconds?: { notReady: number; unreachable: number };
  /** `--allow-no-execute-taint-policy`: a ClusterTaintPolicy may add NoExecute taints. */
  allowNoExecuteTaintPolicy?: boolean;
}
