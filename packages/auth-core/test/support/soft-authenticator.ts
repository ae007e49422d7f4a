import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/** A credential the authenticator holds: an ES256 key pair made for one user of one relying party. */
interface HeldCredential {
  readonly id: string;
  readonly privateKey: KeyObject;
  readonly rpId: string;
  readonly userHandle: string;
  counter: number;
}

/** Flags of authenticator data (WebAuthn §6.1): user present, user verified, attested credential data. */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED = 0x40;

const base64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

/** What a test may change about an answer, to see it refused. */
export interface Answering {
  /** The origin the "browser" reports (default: the authenticator's). */
  readonly origin?: string;
  /** Whether the user was verified (default `true`). */
  readonly userVerified?: boolean;
  /** The id a registration gives its new credential, base64url (default: 16 random bytes). */
  readonly credentialId?: string;
}

/**
 * A software passkey authenticator for API tests: makes ES256 credentials with "none" attestation
 * and signs assertions as a browser would hand them to the server (`@simplewebauthn/browser`'s
 * JSON). It encodes what a platform authenticator would; the server's verification is the
 * library's, untouched.
 */
export class SoftAuthenticator {
  readonly credentials = new Map<string, HeldCredential>();

  constructor(readonly origin: string) {}

  /** Answers registration options with a new discoverable credential. */
  register(options: PublicKeyCredentialCreationOptionsJSON, answering: Answering = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const id = answering.credentialId === undefined ? randomBytes(16) : Buffer.from(answering.credentialId, "base64url");
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    this.credentials.set(base64url(id), { id: base64url(id), privateKey, rpId, userHandle: options.user.id, counter: 0 });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(String(jwk.x), "base64url")],
      [-3, Buffer.from(String(jwk.y), "base64url")],
    ]);
    const credentialData = Buffer.concat([Buffer.alloc(16), u16(id.length), id, Buffer.from(isoCBOR.encode(coseKey))]);
    const authData = authenticatorData(rpId, flags(answering) | ATTESTED, 0, credentialData);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    return {
      id: base64url(id),
      rawId: base64url(id),
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, answering),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** Answers sign-in options with `credentialId` (default: the first one they allow, or any held). */
  authenticate(
    options: PublicKeyCredentialRequestOptionsJSON,
    credentialId?: string,
    answering: Answering = {},
  ): AuthenticationResponseJSON {
    const chosen = credentialId ?? options.allowCredentials?.[0]?.id ?? [...this.credentials.keys()][0];
    const credential = chosen === undefined ? undefined : this.credentials.get(chosen);
    if (!credential) throw new Error("the authenticator holds no such credential");
    credential.counter += 1;
    const authData = authenticatorData(credential.rpId, flags(answering), credential.counter);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge, answering);
    const signed = Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, "base64url"))]);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: base64url(authData),
        signature: base64url(sign("sha256", signed, { key: credential.privateKey, dsaEncoding: "der" })),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private clientData(type: string, challenge: string, answering: Answering): string {
    return base64url(Buffer.from(JSON.stringify({ type, challenge, origin: answering.origin ?? this.origin, crossOrigin: false })));
  }
}

function flags(answering: Answering): number {
  return USER_PRESENT | (answering.userVerified === false ? 0 : USER_VERIFIED);
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

function authenticatorData(rpId: string, flagBits: number, counter: number, credentialData: Buffer = Buffer.alloc(0)): Buffer {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([sha256(rpId), Buffer.from([flagBits]), count, credentialData]);
}
