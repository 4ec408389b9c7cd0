import { describe, expect, it } from 'vitest';
import { renderEmail } from './render.js';

describe('renderEmail', () => {
  it('writes the text part from the sanitised HTML: lines per block, entities read back once', () => {
    const { html, text } = renderEmail(
      {
        subject: 'Hi {{first_name}}',
        html: '<p>Dear {{first_name}},</p><ul><li>Tom &amp; "Jerry"</li><li>5 &lt; 6, &amp;lt; stays</li></ul><p>Call <b>me</b><br>soon</p>',
      },
      { first_name: 'Ann <b>' },
    );
    expect(html).toContain('Dear Ann &lt;b&gt;,');
    expect(text).toBe('Dear Ann <b>,\nTom & "Jerry"\n5 < 6, &lt; stays\nCall me\nsoon');
  });

  it('sanitises again after merging: a merged value cannot make a link run script', () => {
    const { html, text } = renderEmail(
      { subject: 's', html: '<p><a href="{{city}}">Your city</a></p>' },
      { city: 'javascript:alert(1)' },
      { unsubscribeUrl: 'https://harbor.test/unsubscribe/t', companyName: 'Acme & Co' },
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('at Acme &amp; Co. <a href="https://harbor.test/unsubscribe/t">Unsubscribe</a>');
    expect(text).toBe('Your city\nYou receive this email from your agent at Acme & Co. Unsubscribe');
  });
});
