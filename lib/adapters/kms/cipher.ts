/**
 * {@link CredentialCipher} with AWS KMS envelope encryption: each seal asks KMS for a fresh AES-256
 * data key (GenerateDataKey), encrypts locally with AES-256-GCM, and stores the KMS-encrypted data key
 * next to the ciphertext. The context is both the KMS EncryptionContext (so KMS refuses to decrypt the
 * data key under another context, and CloudTrail records it) and the GCM AAD.
 *
 * The credential itself never leaves the process; only data keys travel to and from KMS. The plaintext
 * data key is zeroed as soon as it has been used (best effort: the SDK may hold transient copies).
 */
import { DecryptCommand, GenerateDataKeyCommand, type KMSClient } from '@aws-sdk/client-kms';
import { gcmOpen, gcmSeal, KEY_BYTES } from '../../crypto/aes-gcm.ts';
import {
  assertSealed,
  contextAad,
  type CredentialCipher,
  describeContext,
  type SealedSecret,
  SealError,
} from '../../crypto/cipher.ts';

export class KmsEnvelopeCipher implements CredentialCipher {
  /** The configured KMS key: key ID, key ARN, alias name or alias ARN. */
  readonly keyId: string;
  readonly #client: Pick<KMSClient, 'send'>;

  constructor(client: Pick<KMSClient, 'send'>, keyId: string) {
    if (typeof keyId !== 'string' || keyId.trim() === '') throw new SealError('the KMS key ID must not be empty');
    this.#client = client;
    this.keyId = keyId;
  }

  async seal(plaintext: Uint8Array, context: Readonly<Record<string, string>>): Promise<SealedSecret> {
    // Refuse a bad plaintext or context before asking KMS for a key.
    if (!(plaintext instanceof Uint8Array)) throw new SealError('the plaintext must be a Uint8Array');
    contextAad(context);
    const encryptionContext = { ...context };
    let out;
    try {
      out = await this.#client.send(
        new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: encryptionContext }),
      );
    } catch (err) {
      throw kmsError('GenerateDataKey', this.keyId, context, err);
    }
    const dataKey = out.Plaintext;
    try {
      if (!dataKey || dataKey.byteLength !== KEY_BYTES || !out.CiphertextBlob?.byteLength) {
        throw new SealError(`KMS GenerateDataKey with key ${this.keyId} returned no usable AES-256 data key`);
      }
      return {
        v: 1,
        alg: 'A256GCM',
        // The key ARN KMS used, even when configured by alias: the secret records which key sealed it.
        keyId: out.KeyId || this.keyId,
        encryptedKey: Buffer.from(out.CiphertextBlob).toString('base64'),
        ...gcmSeal(dataKey, plaintext, context),
      };
    } finally {
      dataKey?.fill(0);
    }
  }

  async open(sealed: SealedSecret, context: Readonly<Record<string, string>>): Promise<Uint8Array> {
    const checked = assertSealed(sealed);
    if (checked.encryptedKey === undefined) {
      throw new SealError(
        `the secret (key ${checked.keyId}) has no "encryptedKey": it is not a KMS envelope` +
          (checked.keyId.startsWith('local:')
            ? ' but was sealed with a local key file; open it with LocalKeyCipher'
            : ''),
      );
    }
    let out;
    try {
      // KeyId is the configured key, not the one recorded in the secret: KMS then refuses a data key
      // that was encrypted under any other key (IncorrectKeyException), e.g. one an attacker controls.
      out = await this.#client.send(
        new DecryptCommand({
          CiphertextBlob: Buffer.from(checked.encryptedKey, 'base64'),
          EncryptionContext: { ...context },
          KeyId: this.keyId,
        }),
      );
    } catch (err) {
      throw kmsError('Decrypt', this.keyId, context, err, checked.keyId);
    }
    const dataKey = out.Plaintext;
    try {
      if (!dataKey || dataKey.byteLength !== KEY_BYTES) {
        throw new SealError(`KMS Decrypt with key ${this.keyId} returned no usable AES-256 data key`);
      }
      return gcmOpen(dataKey, checked, context);
    } finally {
      dataKey?.fill(0);
    }
  }
}

/** Error names of KMS (and the SDK) grouped by what the operator should do. */
const TRANSIENT = new Set([
  'KeyUnavailableException',
  'DependencyTimeoutException',
  'KMSInternalException',
  'ThrottlingException',
  'LimitExceededException',
  'ServiceUnavailableException',
  'RequestTimeout',
  'TimeoutError',
]);
const CREDENTIALS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'ExpiredTokenException',
  'ExpiredTokenExceptionTokenRefreshRequired',
  'CredentialsProviderError',
  'InvalidClientTokenId',
]);

/**
 * A {@link SealError} for a failed KMS call, saying what to do. It carries the error's name, the AWS
 * message (which names the principal, action and key, never data) and the request ID, but not the
 * SDK error itself as `cause`: that object can hold the raw HTTP response, which for a successful
 * GenerateDataKey whose parsing failed would contain the plaintext data key.
 */
function kmsError(
  operation: 'GenerateDataKey' | 'Decrypt',
  keyId: string,
  context: Readonly<Record<string, string>>,
  err: unknown,
  sealedKeyId?: string,
): SealError {
  if (err instanceof SealError) return err;
  const name = err instanceof Error ? err.name : 'UnknownError';
  const awsMessage = err instanceof Error && err.message ? err.message : 'no message';
  const requestId = (err as { $metadata?: { requestId?: string } } | undefined)?.$metadata?.requestId;
  const detail = `[${name}: ${awsMessage}${requestId ? `; request ${requestId}` : ''}]`;
  const action = `kms:${operation}`;
  let advice: string;
  if (name === 'InvalidCiphertextException') {
    advice =
      `KMS refused the encrypted data key: the secret was changed after sealing, or ${describeContext(context)} ` +
      'differs from the one it was sealed with (a secret copied to another cluster does not open)';
  } else if (name === 'IncorrectKeyException') {
    advice =
      `the secret was sealed with another KMS key (${sealedKeyId ?? 'unknown'}) than the configured ${keyId}; ` +
      'configure that key to open it, or write the credential again';
  } else if (name === 'AccessDeniedException') {
    advice =
      `access denied to ${action} on KMS key ${keyId}: allow ${action} on the key in the role's policy and the ` +
      'key policy (and any kms:EncryptionContext conditions)';
  } else if (name === 'NotFoundException' || name === 'InvalidArnException') {
    advice = `KMS key ${keyId} was not found: check the key ID, ARN or alias, and the region`;
  } else if (name === 'DisabledException') {
    advice = `KMS key ${keyId} is disabled: enable it (aws kms enable-key)`;
  } else if (name === 'KMSInvalidStateException') {
    advice = `KMS key ${keyId} cannot be used in its current state (pending deletion or import?): check its key state`;
  } else if (name === 'InvalidKeyUsageException') {
    advice = `KMS key ${keyId} is not a symmetric ENCRYPT_DECRYPT key: configure such a key`;
  } else if (CREDENTIALS.has(name)) {
    advice = `the AWS credentials for ${action} are missing, invalid or expired: check the role or profile`;
  } else if (TRANSIENT.has(name)) {
    advice = `KMS is temporarily unavailable for ${action} on key ${keyId}: retry later`;
  } else {
    advice = `${action} on KMS key ${keyId} failed`;
  }
  return new SealError(`${advice} ${detail}`, {
    transient: TRANSIENT.has(name) || CREDENTIALS.has(name) || name === 'AccessDeniedException',
  });
}
