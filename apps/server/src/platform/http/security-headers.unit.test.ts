/** The content security policy names the local voice lab's WebSocket only when the lab is configured. */
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from './security-headers.js';

const withSip = (wsUrl: string | null) =>
  ({
    voice: { sip: wsUrl ? { wsUrl, domain: '127.0.0.1', secret: 's', rtpengineNg: null, disclaimerFile: null } : null },
  }) as unknown as Config;

describe('contentSecurityPolicy', () => {
  it("is the fixed policy without the lab, and adds only the lab's WebSocket origin to connect-src with it", () => {
    expect(contentSecurityPolicy(withSip(null))).toBe(CONTENT_SECURITY_POLICY);
    const policy = contentSecurityPolicy(withSip('ws://127.0.0.1:5161/path'));
    expect(policy).toContain("connect-src 'self' ws://127.0.0.1:5161;");
    expect(policy.replace(' ws://127.0.0.1:5161', '')).toBe(CONTENT_SECURITY_POLICY);
  });
});
