// The floor under any AES-256-GCM token on Node: node:crypto sealing and
// opening the same bytes a 300-byte state becomes, with nothing else (no
// key derivation, envelope, base64url, binding checks or expiry). No token
// format that encrypts with AES-GCM through node:crypto can be faster, so the
// ratio of the official codec to this row bounds what "× faster while also
// encrypting" can reach on this machine.
import { createCipheriv, createDecipheriv, createSecretKey, randomBytes } from "node:crypto";
import { stateOf300Bytes } from "./fixtures.mjs";

/** One `createCipheriv` seal and one `createDecipheriv` open of a 300-byte state, with a 16-byte tag and AAD. */
export async function aesGcmFloor() {
  const key = createSecretKey(randomBytes(32));
  const nonce = randomBytes(12);
  // As much associated data as our envelope authenticates (version, kid, binding digest).
  const aad = randomBytes(48);
  const plaintext = Buffer.from(JSON.stringify(stateOf300Bytes()), "utf8");
  const roundTrip = () => {
    const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: 16 });
    cipher.setAAD(aad);
    const sealed = cipher.update(plaintext);
    cipher.final();
    const tag = cipher.getAuthTag();
    const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: 16 });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    const opened = decipher.update(sealed);
    decipher.final();
    return opened;
  };
  return {
    call: async () => roundTrip(),
    check: (opened) => {
      if (!plaintext.equals(opened)) throw new Error("node:crypto did not round-trip the state");
    },
    async close() {},
  };
}
