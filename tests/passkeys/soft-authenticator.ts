// A software authenticator for API tests: an ES256 key made with node:crypto, answering
// registration options with a 'none' attestation and authentication options with an assertion,
// built byte by byte as WebAuthn specifies (what @simplewebauthn/server verifies).
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftAuthenticatorOptions {
  rpId?: string;
  origin?: string;
  userVerified?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;
  userHandle: string | undefined;
  rpId: string;
  origin: string;
  userVerified: boolean;

  constructor(options: SoftAuthenticatorOptions = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    this.rpId = options.rpId ?? 'localhost';
    this.origin = options.origin ?? 'http://localhost:5173';
    this.userVerified = options.userVerified ?? true;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra: number): number {
    return 0x01 | (this.userVerified ? 0x04 : 0) | extra;
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers `navigator.credentials.create()` options. */
  register(options: { challenge: string; user?: { id: string } }) {
    this.userHandle = options.user?.id;
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(this.publicJwk.x, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(this.publicJwk.y, 'base64url'))],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const counter = Buffer.alloc(4);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([this.flags(0x40)]),
      counter,
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get()` options. */
  assert(options: { challenge: string }, overrides: { counter?: number; userHandle?: string } = {}) {
    this.counter = overrides.counter ?? this.counter + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([this.flags(0)]), counter]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    const userHandle = overrides.userHandle ?? this.userHandle;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle } : {}),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
