/**
 * Template HTML: sanitised when saved (a script or an event handler is refused with a 422: an email cannot carry
 * one, and silently dropping it would change what the admin wrote) and again when rendered; merge fields checked on
 * save ({{first_name}} ...) and filled in per recipient with the values HTML-escaped.
 */
import { EMAIL_MERGE_FIELDS, type EmailMergeField } from '@harbor/shared';
import sanitizeHtml from 'sanitize-html';
import { HttpError } from '../../platform/http/errors.js';

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'a',
    'ul',
    'ol',
    'li',
    'h1',
    'h2',
    'h3',
    'h4',
    'blockquote',
    'hr',
    'img',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tr',
    'td',
    'th',
    'code',
    'pre',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align'],
    p: ['style'],
    span: ['style'],
    div: ['style'],
  },
  allowedStyles: {
    '*': {
      'text-align': [/^(left|right|center|justify)$/],
      color: [/^#[0-9a-f]{3,6}$/i],
      'font-weight': [/^(bold|normal|\d{3})$/],
    },
  },
  allowedSchemes: ['https', 'http', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  // Merge fields inside links ({{unsubscribe_url}}) must survive: they are filled in with escaped URLs later.
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** What makes a template dangerous rather than merely untidy. */
const DANGER =
  /<\s*(script|iframe|object|embed|form|style|link|meta|base)\b|\son[a-z]+\s*=|javascript:|vbscript:|data:text\/html/i;

export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, ALLOWED);
}

const KNOWN = new Set<string>(EMAIL_MERGE_FIELDS.map((f) => f.key));
const FIELD = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Merge fields used that do not exist, and unbalanced braces. */
export function mergeProblems(text: string): string[] {
  const problems: string[] = [];
  for (const m of text.matchAll(FIELD)) if (!KNOWN.has(m[1])) problems.push(`{{${m[1]}}} is not a merge field`);
  const stripped = text.replace(FIELD, '');
  if (/\{\{|\}\}/.test(stripped)) problems.push('a merge field is not closed: write it as {{first_name}}');
  return problems;
}

/** Checks a template on save: no script, merge fields that exist; answers the sanitised HTML. */
export function checkTemplate(subject: string, html: string): string {
  const errors: Record<string, string[]> = {};
  if (DANGER.test(html)) errors.body_html = ['contains a script or an embedded page, which an email cannot carry'];
  const inBody = mergeProblems(html);
  if (inBody.length) errors.body_html = [...(errors.body_html ?? []), ...inBody];
  const inSubject = mergeProblems(subject);
  if (inSubject.length) errors.subject = inSubject;
  if (Object.keys(errors).length) throw new HttpError(422, errors);
  const clean = sanitizeEmailHtml(html);
  if (!clean.replace(/<[^>]*>/g, '').trim() && !/<img/i.test(clean)) {
    throw new HttpError(422, { body_html: ['is empty once cleaned'] });
  }
  return clean;
}

export type MergeValues = Partial<Record<EmailMergeField, string | null>>;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Fills merge fields: HTML-escaped in HTML, plain in a subject; unknown ones left as they are (and reported). */
export function merge(text: string, values: MergeValues, html: boolean): string {
  return text.replace(FIELD, (whole, key: string) => {
    if (!KNOWN.has(key)) return whole;
    const v = values[key as EmailMergeField] ?? '';
    return html ? escapeHtml(v) : v.replace(/[\r\n]+/g, ' ');
  });
}

/** The message as sent: merged, sanitised again, with the unsubscribe footer campaign mail must carry. */
export function renderEmail(
  t: { subject: string; html: string },
  values: MergeValues,
  opts: { unsubscribeUrl?: string | null; companyName?: string } = {},
) {
  const subject = merge(t.subject, values, false).slice(0, 998);
  let html = sanitizeEmailHtml(merge(t.html, values, true));
  if (opts.unsubscribeUrl && !t.html.includes('{{unsubscribe_url}}')) {
    html += `<hr><p style="text-align: center">You receive this email from ${escapeHtml(values.agent_name ?? 'your agent')}${
      opts.companyName ? ` at ${escapeHtml(opts.companyName)}` : ''
    }. <a href="${escapeHtml(opts.unsubscribeUrl)}">Unsubscribe</a></p>`;
  }
  // The text part: the tags of the sanitised HTML dropped. A regex is enough here (and a second sanitize-html pass,
  // ~0.1 ms a recipient of a broadcast, is not): sanitize-html's output has no comments, scripts or styles, and
  // escapes '<' and '>' in text and attribute values, so every '<' opens a tag that the next '>' closes.
  const text = html
    .replace(/<\/(p|div|h\d|li|tr)>|<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    // Last: '&amp;lt;' is the text '&lt;', not '<'.
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { subject, html, text };
}

/** Sample values for a preview without a contact. */
export const SAMPLE_VALUES: MergeValues = Object.fromEntries(EMAIL_MERGE_FIELDS.map((f) => [f.key, f.sample]));
