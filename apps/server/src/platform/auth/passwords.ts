import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP baseline (m=19 MiB, t=2, p=1): ~75 ms a hash on the reference machine. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Verified against when the account does not exist, so a wrong email costs as long as a wrong password. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordTime(password: string) {
  dummyHash ??= hashPassword('harbor-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
