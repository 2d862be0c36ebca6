/**
 * Container image references as Karmada's image overrider sees them: `pkg/util/imageparser` over
 * `github.com/distribution/reference` v0.6.0 `Parse` (no docker.io normalisation) and
 * `github.com/opencontainers/go-digest` validation.
 */

// distribution/reference regexp.go, transcribed (Go RE2 and JS agree on these: no backreferences,
// leftmost-first alternation).
const ALPHANUMERIC = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const DOMAIN_NAME_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_NAME_COMPONENT}(?:\\.${DOMAIN_NAME_COMPONENT})*`;
const IPV6_ADDRESS = '\\[(?:[a-fA-F0-9:]+)\\]';
const DOMAIN_AND_PORT = `(?:${DOMAIN_NAME}|${IPV6_ADDRESS})(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME}`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);

/** `anchoredTagRegexp`: what `SetTagOrDigest` treats as a tag. */
const ANCHORED_TAG = new RegExp(`^${TAG}$`);
/** `anchoredDigestRegexp`: what `SetTagOrDigest` treats as a digest. */
const ANCHORED_DIGEST = new RegExp(`^${DIGEST}$`);

/** `NameTotalLengthMax`. */
const NAME_TOTAL_LENGTH_MAX = 255;

/** go-digest algorithms Karmada registers (it imports crypto/sha256 and crypto/sha512): hex length. */
const DIGEST_ALGORITHMS: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

/** go-digest `Digest.Validate`; the message is go-digest's error text, or undefined when valid. */
function digestError(digest: string): string | undefined {
  const i = digest.indexOf(':');
  if (i <= 0 || i + 1 === digest.length) return 'invalid checksum digest format';
  const algorithm = digest.slice(0, i);
  const encoded = digest.slice(i + 1);
  const length = DIGEST_ALGORITHMS[algorithm];
  if (length === undefined) return 'unsupported digest algorithm';
  if (encoded.length !== length) return 'invalid checksum digest length';
  return /^[a-f0-9]+$/.test(encoded) ? undefined : 'invalid checksum digest format';
}

/**
 * `imageparser.SplitHostname`: the first path segment is the registry when it contains `.` or `:`
 * or is `localhost`; otherwise there is no registry.
 */
export function splitHostname(name: string): { hostname: string; repository: string } {
  const i = name.indexOf('/');
  if (i === -1) return { hostname: '', repository: name };
  const first = name.slice(0, i);
  if (!/[.:]/.test(first) && first !== 'localhost') return { hostname: '', repository: name };
  return { hostname: first, repository: name.slice(i + 1) };
}

/**
 * A parsed image, mutable like Karmada's `imageparser.Components`. When a reference carries both a
 * tag and a digest only the tag is kept (`reference.Tagged` wins in `Parse`), so the digest is lost
 * by any image override.
 */
export class ImageComponents {
  hostname: string;
  repository: string;
  tag: string;
  digest: string;

  constructor(hostname: string, repository: string, tag: string, digest: string) {
    this.hostname = hostname;
    this.repository = repository;
    this.tag = tag;
    this.digest = digest;
  }

  /** The tag when set, else the digest. */
  tagOrDigest(): string {
    return this.tag !== '' ? this.tag : this.digest;
  }

  /**
   * `SetTagOrDigest`: a valid tag replaces the tag and clears the digest; otherwise a valid digest
   * replaces the digest and clears the tag; otherwise nothing changes (a silent no-op).
   */
  setTagOrDigest(input: string): void {
    if (ANCHORED_TAG.test(input)) {
      this.tag = input;
      this.digest = '';
    } else if (ANCHORED_DIGEST.test(input)) {
      this.digest = input;
      this.tag = '';
    }
  }

  /** `RemoveTagOrDigest`: drops the tag if there is one, else the digest. */
  removeTagOrDigest(): void {
    if (this.tag !== '') this.tag = '';
    else this.digest = '';
  }

  /** `host/repository[:tag|@digest]` (no `host/` without a registry). */
  toString(): string {
    const full = this.hostname === '' ? this.repository : `${this.hostname}/${this.repository}`;
    if (this.tag !== '') return `${full}:${this.tag}`;
    if (this.digest !== '') return `${full}@${this.digest}`;
    return full;
  }
}

/** The result of {@link parseImage}. */
export type ParsedImage = { ok: true; image: ImageComponents } | { ok: false; error: string };

/**
 * `imageparser.Parse`: distribution `reference.Parse` (errors with its messages: empty name,
 * uppercase, invalid format, name too long, bad digest), then the hostname split.
 *
 * @example parseImage('fictional.registry.example:10443/karmada/app:v1') // hostname 'fictional.registry.example:10443'
 */
export function parseImage(image: string): ParsedImage {
  const m = image.length <= 4096 ? REFERENCE.exec(image) : null;
  if (!m) {
    if (image === '') return { ok: false, error: 'repository name must have at least one component' };
    if (image.length <= 4096 && REFERENCE.test(image.toLowerCase())) {
      return { ok: false, error: 'repository name must be lowercase' };
    }
    return { ok: false, error: 'invalid reference format' };
  }
  const [, name = '', tag = '', digest = ''] = m;
  if (name.length > NAME_TOTAL_LENGTH_MAX) {
    return { ok: false, error: `repository name must not be more than ${NAME_TOTAL_LENGTH_MAX} characters` };
  }
  if (digest !== '') {
    const error = digestError(digest);
    if (error) return { ok: false, error };
  }
  const { hostname, repository } = splitHostname(name);
  // A tagged reference reports only its tag: the digest of `name:tag@digest` is dropped.
  return { ok: true, image: new ImageComponents(hostname, repository, tag, tag !== '' ? '' : digest) };
}
