import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  DecryptCommand,
  type DecryptCommandInput,
  type DecryptCommandOutput,
  DisabledException,
  GenerateDataKeyCommand,
  type GenerateDataKeyCommandInput,
  type GenerateDataKeyCommandOutput,
  IncorrectKeyException,
  InvalidCiphertextException,
  KMSServiceException,
  NotFoundException,
  type KMSClient,
} from '@aws-sdk/client-kms';
import { KmsEnvelopeCipher } from '../../../lib/adapters/kms/cipher.ts';
import { createKmsClient } from '../../../lib/adapters/kms/client.ts';
import { type SealedSecret, SealError } from '../../../lib/crypto/cipher.ts';
import { LocalKeyCipher } from '../../../lib/crypto/local-key.ts';
import { assertNoSecrets, rejectsSealError, SECRET_TOKEN, tamper } from './fixtures.ts';

const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const ALIAS = 'alias/serverless-karmada-credentials';
const MEMBER1 = { cluster: 'member1' };
const METADATA = { httpStatusCode: 400, requestId: 'req-0001' };

type Recorded =
  { name: 'GenerateDataKey'; input: GenerateDataKeyCommandInput } | { name: 'Decrypt'; input: DecryptCommandInput };

/**
 * A KMS that really wraps data keys: GenerateDataKey returns a random key and an opaque blob, and
 * Decrypt returns the key for that blob only under the same encryption context and key, like KMS.
 * It records every command, keeps every plaintext key it handed out (to check they are zeroed), and
 * can be told to fail the next call.
 */
class FakeKms {
  readonly commands: Recorded[] = [];
  readonly handedOut: Uint8Array[] = [];
  readonly #wrapped = new Map<string, { key: Buffer; context: string }>();
  failNext: Error | undefined;

  async send(command: unknown): Promise<GenerateDataKeyCommandOutput | DecryptCommandOutput> {
    const failure = this.failNext;
    this.failNext = undefined;
    if (command instanceof GenerateDataKeyCommand) {
      this.commands.push({ name: 'GenerateDataKey', input: command.input });
      if (failure) throw failure;
      const key = randomBytes(32);
      const blob = randomBytes(48);
      this.#wrapped.set(blob.toString('hex'), { key, context: canonical(command.input.EncryptionContext) });
      const plaintext = new Uint8Array(key);
      this.handedOut.push(plaintext);
      return { $metadata: {}, KeyId: KEY_ARN, Plaintext: plaintext, CiphertextBlob: new Uint8Array(blob) };
    }
    if (command instanceof DecryptCommand) {
      this.commands.push({ name: 'Decrypt', input: command.input });
      if (failure) throw failure;
      const entry = this.#wrapped.get(Buffer.from(command.input.CiphertextBlob ?? []).toString('hex'));
      if (!entry || entry.context !== canonical(command.input.EncryptionContext)) {
        throw new InvalidCiphertextException({ $metadata: METADATA, message: 'InvalidCiphertextException' });
      }
      const plaintext = new Uint8Array(entry.key);
      this.handedOut.push(plaintext);
      return { $metadata: {}, KeyId: KEY_ARN, Plaintext: plaintext, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
    }
    throw new Error(`unexpected command ${String(command)}`);
  }

  /** Every data key this fake made, in the clear (the copies handed out are zeroed by the cipher). */
  dataKeys(): Buffer[] {
    return [...this.#wrapped.values()].map((entry) => entry.key);
  }

  /** The fake as the cipher sees it (the SDK's overloaded `send` cannot be implemented directly). */
  get client(): Pick<KMSClient, 'send'> {
    return this as unknown as Pick<KMSClient, 'send'>;
  }
}

function canonical(context: Record<string, string> | undefined): string {
  return JSON.stringify(Object.entries(context ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function sealed(kms: FakeKms, cipher: KmsEnvelopeCipher): Promise<SealedSecret> {
  const result = await cipher.seal(Buffer.from(SECRET_TOKEN), MEMBER1);
  kms.commands.length = 0;
  return result;
}

describe('KmsEnvelopeCipher', () => {
  it('seals with a fresh AES-256 data key bound to the context, and zeroes it', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const result = await cipher.seal(Buffer.from(SECRET_TOKEN), { cluster: 'member1', kind: 'token' });

    assert.equal(kms.commands.length, 1);
    assert.deepEqual(kms.commands[0], {
      name: 'GenerateDataKey',
      input: { KeyId: ALIAS, KeySpec: 'AES_256', EncryptionContext: { cluster: 'member1', kind: 'token' } },
    });
    assert.equal(result.v, 1);
    assert.equal(result.alg, 'A256GCM');
    assert.equal(result.keyId, KEY_ARN, 'records the key ARN KMS used, not the alias');
    assert.equal(Buffer.from(result.encryptedKey ?? '', 'base64').length, 48);
    assert.equal(Buffer.from(result.iv, 'base64').length, 12);
    assert.equal(Buffer.from(result.tag, 'base64').length, 16);
    assert.ok(!JSON.stringify(result).includes(SECRET_TOKEN));
    assert.ok(
      kms.handedOut[0]?.every((byte) => byte === 0),
      'the plaintext data key is zeroed after use',
    );
  });

  it('opens with Decrypt of the encrypted key, under the same context and the configured key', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const secret = JSON.parse(JSON.stringify(await sealed(kms, cipher)));

    const opened = await cipher.open(secret, { ...MEMBER1 });
    assert.equal(Buffer.from(opened).toString('utf8'), SECRET_TOKEN);
    assert.equal(kms.commands.length, 1);
    const [command] = kms.commands;
    assert.equal(command?.name, 'Decrypt');
    assert.deepEqual(command.input.EncryptionContext, MEMBER1);
    assert.equal(command.input.KeyId, ALIAS);
    assert.deepEqual(Buffer.from(command.input.CiphertextBlob ?? []), Buffer.from(secret.encryptedKey, 'base64'));
    assert.ok(
      kms.handedOut.every((key) => key.every((byte) => byte === 0)),
      'every data key is zeroed',
    );
  });

  it('makes a new data key for every seal', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, KEY_ARN);
    const a = await cipher.seal(Buffer.from('a'), MEMBER1);
    const b = await cipher.seal(Buffer.from('a'), MEMBER1);
    assert.notEqual(a.encryptedKey, b.encryptedKey);
    assert.equal(kms.commands.length, 2);
  });

  it('maps InvalidCiphertextException (wrong context) to a SealError about the context', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const secret = await sealed(kms, cipher);
    const err = await rejectsSealError(
      cipher.open(secret, { cluster: 'member2' }),
      /KMS refused the encrypted data key.*the context \(cluster\) differs.*InvalidCiphertextException.*req-0001/,
      [SECRET_TOKEN],
    );
    assert.equal(err.cause, undefined, 'the SDK error (which can hold the raw response) is not attached');
    assert.deepEqual(kms.commands[0]?.input.EncryptionContext, { cluster: 'member2' });
  });

  it('maps a simulated InvalidCiphertextException for a tampered encrypted key', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const secret = await sealed(kms, cipher);
    await rejectsSealError(cipher.open(tamper(secret, 'encryptedKey'), MEMBER1), /KMS refused the encrypted data key/);
    kms.failNext = new InvalidCiphertextException({ $metadata: METADATA, message: 'simulated' });
    await rejectsSealError(
      cipher.open(secret, MEMBER1),
      /changed after sealing.*\[InvalidCiphertextException: simulated/,
    );
  });

  for (const field of ['data', 'tag', 'iv'] as const) {
    it(`refuses tampered ${field} (KMS accepts the data key, GCM refuses the data)`, async () => {
      const kms = new FakeKms();
      const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
      const secret = await sealed(kms, cipher);
      await rejectsSealError(cipher.open(tamper(secret, field), MEMBER1), /does not authenticate/, [SECRET_TOKEN]);
      assert.ok(
        kms.handedOut.every((key) => key.every((byte) => byte === 0)),
        'the data key is zeroed on failure',
      );
    });
  }

  const failures: [string, () => Error, RegExp][] = [
    [
      'AccessDeniedException',
      () =>
        new KMSServiceException({
          name: 'AccessDeniedException',
          $fault: 'client',
          $metadata: METADATA,
          message: 'User: arn:aws:sts::111122223333:assumed-role/fn is not authorized to perform: kms:Decrypt',
        }),
      /access denied to kms:Decrypt on KMS key alias\/.*allow kms:Decrypt.*not authorized/,
    ],
    [
      'IncorrectKeyException',
      () => new IncorrectKeyException({ $metadata: METADATA, message: 'wrong key' }),
      /sealed with another KMS key \(arn:aws:kms:.*\) than the configured alias\//,
    ],
    [
      'NotFoundException',
      () => new NotFoundException({ $metadata: METADATA, message: 'not found' }),
      /was not found: check the key ID/,
    ],
    [
      'DisabledException',
      () => new DisabledException({ $metadata: METADATA, message: 'disabled' }),
      /is disabled: enable it/,
    ],
    [
      'ThrottlingException',
      () => new KMSServiceException({ name: 'ThrottlingException', $fault: 'client', $metadata: METADATA }),
      /temporarily unavailable.*retry later/,
    ],
    [
      'a network error',
      () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      /kms:Decrypt on KMS key .* failed \[Error: connect ECONNREFUSED\]/,
    ],
  ];
  for (const [what, make, message] of failures) {
    it(`maps ${what} on Decrypt to an actionable SealError`, async () => {
      const kms = new FakeKms();
      const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
      const secret = await sealed(kms, cipher);
      kms.failNext = make();
      const err = await rejectsSealError(cipher.open(secret, MEMBER1), message, [SECRET_TOKEN]);
      assert.equal(err.cause, undefined);
    });
  }

  it('maps failures of GenerateDataKey, naming that action', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    kms.failNext = new KMSServiceException({ name: 'AccessDeniedException', $fault: 'client', $metadata: METADATA });
    await rejectsSealError(
      cipher.seal(Buffer.from(SECRET_TOKEN), MEMBER1),
      /access denied to kms:GenerateDataKey on KMS key alias\//,
      [SECRET_TOKEN],
    );
  });

  it('refuses a secret without an encrypted key, pointing at the local cipher when it is one', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const local = await new LocalKeyCipher(randomBytes(32)).seal(Buffer.from(SECRET_TOKEN), MEMBER1);
    await rejectsSealError(cipher.open(local, MEMBER1), /not a KMS envelope but was sealed with a local key file/);
    await rejectsSealError(cipher.open({ v: 1 } as unknown as SealedSecret, MEMBER1), /not a sealed secret/);
    assert.equal(kms.commands.length, 0, 'KMS is not called for a malformed secret');
  });

  it('refuses a data key of the wrong size from KMS', async () => {
    const cipher = new KmsEnvelopeCipher(
      {
        send: async () => ({ $metadata: {}, Plaintext: new Uint8Array(16), CiphertextBlob: new Uint8Array(8) }),
      } as unknown as Pick<KMSClient, 'send'>,
      ALIAS,
    );
    await rejectsSealError(cipher.seal(Buffer.from(SECRET_TOKEN), MEMBER1), /no usable AES-256 data key/);
  });

  it('refuses an empty key ID', () => {
    assert.throws(() => new KmsEnvelopeCipher(new FakeKms().client, ' '), SealError);
  });

  it('never shows the plaintext or a data key in any error', async () => {
    const kms = new FakeKms();
    const cipher = new KmsEnvelopeCipher(kms.client, ALIAS);
    const secret = await cipher.seal(Buffer.from(SECRET_TOKEN), MEMBER1);
    const attempts: (() => Promise<unknown>)[] = [
      () => cipher.open(tamper(secret, 'data'), MEMBER1),
      () => cipher.open(secret, { cluster: 'other' }),
      () => cipher.open({ ...secret, tag: 'AAAA' }, MEMBER1),
      () => {
        kms.failNext = new InvalidCiphertextException({ $metadata: METADATA, message: 'x' });
        return cipher.open(secret, MEMBER1);
      },
    ];
    for (const attempt of attempts) {
      try {
        await attempt();
        assert.fail('expected a rejection');
      } catch (err) {
        assert.ok(err instanceof SealError);
        assertNoSecrets(err, [SECRET_TOKEN, ...kms.dataKeys()]);
      }
    }
  });
});

describe('createKmsClient', () => {
  it('uses the region, and the endpoint with dummy credentials for a local emulator', async () => {
    const local = createKmsClient({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:4599' });
    assert.equal(await local.config.region(), 'eu-west-1');
    const credentials = await local.config.credentials();
    assert.equal(credentials.accessKeyId, 'local');
    const endpoint = await local.config.endpoint?.();
    assert.equal(endpoint?.hostname, '127.0.0.1');
    assert.equal(endpoint?.port, 4599);
    local.destroy();

    const aws = createKmsClient({ region: 'us-east-1' });
    assert.equal(await aws.config.region(), 'us-east-1');
    assert.equal(aws.config.endpoint, undefined);
    aws.destroy();
  });
});
