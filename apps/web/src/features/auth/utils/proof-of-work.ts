import { leadingZeroBits, proofInput } from '@proxy/contract/light';

/**
 * Finds a nonce whose SHA-256 with the challenge starts with `bits` zero bits
 * (the sign-in's proof of work past an account's budget of failures): about
 * 2^bits hashes, a few seconds at the server's default. Yields to the page
 * between batches so it stays responsive.
 */
export async function solveProof(challenge: string, bits: number): Promise<string> {
  const encoder = new TextEncoder();
  for (let nonce = 0; ; nonce += 1) {
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', encoder.encode(proofInput(challenge, String(nonce)))),
    );
    if (leadingZeroBits(digest) >= bits) return String(nonce);
  }
}
