/**
 * The S3 adapter of the storage port, for scale: any S3-compatible store (AWS S3, MinIO, Cloudflare R2, Wasabi)
 * through the official AWS SDK. Chosen by STORAGE_S3_BUCKET (config.ts); credentials come from STORAGE_S3_* or,
 * when those are unset, the SDK's own chain (environment, instance role). Keys keep the port's rules and live under
 * an optional prefix, so several deployments can share a bucket.
 */
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { assertKey, type StoragePort } from './port.js';

export interface S3StorageOptions {
  bucket: string;
  prefix?: string;
  region?: string;
  /** An S3-compatible endpoint; AWS itself when unset. */
  endpoint?: string;
  /** Path-style URLs (bucket in the path): what most S3-compatible servers need. */
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export class S3Storage implements StoragePort {
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3StorageOptions) {
    const config: S3ClientConfig = {
      region: options.region ?? 'us-east-1',
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    };
    if (options.accessKeyId && options.secretAccessKey) {
      config.credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
    }
    this.client = new S3Client(config);
    this.prefix = (options.prefix ?? '').replace(/^\/+|\/+$/g, '');
  }

  private keyOf(key: string, mode: 'write' | 'read' = 'read') {
    assertKey(key, mode);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async put(key: string, data: Buffer, contentType: string) {
    // One PUT is atomic in S3: a reader sees the old object or the new one, never a torn file.
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.keyOf(key, 'write'),
        Body: data,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
      return (res.Body as Readable | undefined) ?? null;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async delete(key: string) {
    // S3 answers 204 for a missing key too, which is the port's idempotent delete.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
  }

  close() {
    this.client.destroy();
  }
}
