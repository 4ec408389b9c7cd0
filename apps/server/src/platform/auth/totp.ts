import { generate, generateSecret, generateURI, verify } from 'otplib';

export const newTotpSecret = () => generateSecret();
export const totpUri = (secret: string, label: string) => generateURI({ issuer: 'Harbor', label, secret });
export const totpNow = (secret: string) => generate({ secret });

/**
 * Checks a code with one step of clock drift either way. Answers the accepted time step so the caller can refuse
 * a code whose step is not newer than the last one used: a code works once.
 */
export async function checkTotp(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  const result = await verify({ secret, token: code, epochTolerance: 30 });
  if (!result.valid) return null;
  const step = (result as { timeStep?: number }).timeStep ?? Math.floor(Date.now() / 30_000);
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}
