/** Random tokens and their stored form. Tokens are 256-bit; only their SHA-256 reaches the database. */
import crypto from 'node:crypto';

export const newToken = () => crypto.randomBytes(32).toString('base64url');
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * AES-256-GCM for secrets we must read back (TOTP seeds). The key derives from SECRET_KEY, so a copy of the
 * database alone does not reveal them.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(secret: string) {
    this.key = crypto.createHash('sha256').update(`harbor-secret-box:${secret}`).digest();
  }
  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }
  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
