/**
 * The parts of Go's `net/url.Parse` that Karmada's Cluster validation looks at (scheme, host, user
 * information, query, fragment), with Go's error messages: Karmada quotes them back to the user.
 */

/** The fields of Go's `url.URL` that validation reads. */
export interface GoUrl {
  scheme: string;
  /** `host[:port]`, empty for opaque or path-only URLs. */
  host: string;
  /** The raw user information before `@`, or undefined when there is none. */
  user: string | undefined;
  rawQuery: string;
  /** The unescaped fragment. */
  fragment: string;
}

function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9A-Fa-f]$/.test(c);
}

/** Characters a host may contain unescaped (RFC 3986 reg-name plus `:[]<>"`, as Go allows). */
const HOST_CHARS = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]$/;

/** Go's `unescape` validity checks; returns an error message or undefined. */
function checkEscapes(s: string, host: boolean): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) {
        const bad = s.slice(i, i + 3);
        return `invalid URL escape ${JSON.stringify(bad)}`;
      }
      i += 2;
    } else if (host && c.charCodeAt(0) < 0x80 && !HOST_CHARS.test(c)) {
      return `invalid character ${JSON.stringify(c)} in host name`;
    }
  }
  return undefined;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function scheme(raw: string): { scheme: string; rest: string } | { error: string } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === ':') {
      if (i === 0) return { error: 'missing protocol scheme' };
      return { scheme: raw.slice(0, i), rest: raw.slice(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

const USERINFO_CHARS = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function authority(auth: string): { user: string | undefined; host: string } | { error: string } {
  const at = auth.lastIndexOf('@');
  const hostPart = at < 0 ? auth : auth.slice(at + 1);
  let host: string;
  if (hostPart.startsWith('[')) {
    const close = hostPart.lastIndexOf(']');
    if (close < 0) return { error: "missing ']' in host" };
    const colonPort = hostPart.slice(close + 1);
    if (!/^(:\d*)?$/.test(colonPort)) return { error: `invalid port ${JSON.stringify(colonPort)} after host` };
    host = hostPart;
  } else {
    const colon = hostPart.lastIndexOf(':');
    if (colon >= 0) {
      const colonPort = hostPart.slice(colon);
      if (!/^:\d*$/.test(colonPort)) return { error: `invalid port ${JSON.stringify(colonPort)} after host` };
    }
    const hostError = checkEscapes(hostPart, true);
    if (hostError) return { error: hostError };
    host = decode(hostPart);
  }
  if (at < 0) return { user: undefined, host };
  const userinfo = auth.slice(0, at);
  if (!USERINFO_CHARS.test(userinfo)) return { error: 'net/url: invalid userinfo' };
  const userError = checkEscapes(userinfo, false);
  if (userError) return { error: userError };
  return { user: userinfo, host };
}

/**
 * Parses `raw` as Go's `url.Parse` does, returning the fields validation reads, or Go's error text
 * (`parse "10.0.0.1:6443": first path segment in URL cannot contain colon`).
 */
export function parseGoUrl(raw: string): GoUrl | { error: string } {
  const hash = raw.indexOf('#');
  const beforeFragment = hash < 0 ? raw : raw.slice(0, hash);
  const fragment = hash < 0 ? '' : raw.slice(hash + 1);
  const fail = (url: string, message: string) => ({ error: `parse ${JSON.stringify(url)}: ${message}` });

  if (hasControlByte(beforeFragment)) return fail(beforeFragment, 'net/url: invalid control character in URL');
  if (beforeFragment === '*') return { scheme: '', host: '', user: undefined, rawQuery: '', fragment: '' };
  const s = scheme(beforeFragment);
  if ('error' in s) return fail(beforeFragment, s.error);
  let rest = s.rest;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  const url: GoUrl = { scheme: s.scheme.toLowerCase(), host: '', user: undefined, rawQuery, fragment: '' };
  if (!rest.startsWith('/')) {
    if (url.scheme === '') {
      const firstSegment = rest.split('/')[0]!;
      if (firstSegment.includes(':')) return fail(beforeFragment, 'first path segment in URL cannot contain colon');
    } else {
      // A rootless path after a scheme is opaque: no host.
      return withFragment(url, raw, fragment);
    }
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let auth = rest.slice(2);
    const slash = auth.indexOf('/');
    let path = '';
    if (slash >= 0) {
      path = auth.slice(slash);
      auth = auth.slice(0, slash);
    }
    const a = authority(auth);
    if ('error' in a) return fail(beforeFragment, a.error);
    url.user = a.user;
    url.host = a.host;
    rest = path;
  }
  const pathError = checkEscapes(rest, false);
  if (pathError) return fail(beforeFragment, pathError);
  return withFragment(url, raw, fragment);
}

function withFragment(url: GoUrl, raw: string, fragment: string): GoUrl | { error: string } {
  if (fragment === '') return url;
  const error = checkEscapes(fragment, false);
  if (error) return { error: `parse ${JSON.stringify(raw)}: ${error}` };
  return { ...url, fragment: decode(fragment) };
}
