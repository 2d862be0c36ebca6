/**
 * The one place `@peculiar/x509` is loaded. The library resolves its ASN.1 and algorithm providers
 * through tsyringe, which throws at load time unless the `reflect-metadata` polyfill ran first, so the
 * polyfill is imported here, before it (ESM evaluates imports in order). Node 20 already exposes
 * WebCrypto as `globalThis.crypto`, which the library would pick up by itself; setting Node's
 * `webcrypto` explicitly keeps the behaviour independent of the global and of the Node version.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

/**
 * `@peculiar/x509`, ready to use (polyfill loaded, Node's WebCrypto installed). Import the library
 * through this module only, never directly, so the set-up above cannot be skipped.
 */
export { x509 };
