/**
 * PKI for local mode: a CA, the API server's HTTPS certificate, client certificates, the bootstrap
 * CA hash, and kubeconfigs that the real `kubectl` accepts.
 */
export {
  type CertificateAndKey,
  type CertificateAuthority,
  type CertificateAuthorityOptions,
  type CertificateUsage,
  type IssueCertificateOptions,
  type IssuedCertificate,
  CERTIFICATE_BACKDATE_MS,
  caCertHash,
  createCertificateAuthority,
  issueCertificate,
} from './certificates.ts';
export { PkiError, PkiFileError, PkiOptionsError } from './errors.ts';
export { type KubeconfigOptions, kubeconfigYaml, writeKubeconfig, writeKubeconfigText } from './kubeconfig.ts';
export {
  DEFAULT_SERVER_HOSTS,
  ensureLocalPki,
  LOCAL_CA_VALIDITY_DAYS,
  LOCAL_PKI_FILES,
  LOCAL_SERVER_VALIDITY_DAYS,
  type LocalPki,
  type LocalPkiOptions,
  SERVER_RENEW_BEFORE_DAYS,
  serverCertificateRenewal,
} from './local.ts';
export { type TlsServerOptions, tlsServerOptions } from './tls.ts';
