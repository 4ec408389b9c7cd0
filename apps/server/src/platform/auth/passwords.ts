import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP baseline (m=19 MiB, t=2, p=1): ~75 ms a hash on the reference machine. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/**
 * Under Vitest only: the cheapest argon2id (as Rails' bcrypt cost in tests). The suites sign in and create users
 * thousands of times, and at 75 ms of CPU each the hashing alone took minutes of the two cores (issue 9's 12-minute
 * test budget). Same algorithm and code path; a hash records its own parameters, so verifying is as cheap as the
 * hash it checks (the seeded template's demo users are hashed this way too). The browser flows and benches run the
 * real server, with the real cost.
 */
const TEST_OPTIONS = { memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

export const hashPassword = (password: string) => hash(password, process.env.VITEST ? TEST_OPTIONS : OPTIONS);

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
