import {
  AgentEmailList,
  EmailBulkUpdateBody,
  EmailBulkUpdateReply,
  EmailPreview,
  EmailPreviewBody,
  EmailTemplate,
  EmailTemplateBody,
  EmailTemplateList,
  EmailTemplateListQuery,
  EmailTemplatePatch,
  IdParams,
  NoContent,
  UnsubscribeInfo,
  UnsubscribeParams,
  UnsubscribeReply,
} from '../index.js';
import { defineContract } from './define.js';

export const emailsContract = defineContract({
  'GET /v1/admin/emails': { query: EmailTemplateListQuery, reply: EmailTemplateList },
  'POST /v1/admin/emails': { body: EmailTemplateBody, reply: EmailTemplate },
  'POST /v1/admin/emails/bulk_update': { body: EmailBulkUpdateBody, reply: EmailBulkUpdateReply },
  'GET /v1/admin/emails/{id}': { params: IdParams, reply: EmailTemplate },
  'PATCH /v1/admin/emails/{id}': { params: IdParams, body: EmailTemplatePatch, reply: EmailTemplate },
  'DELETE /v1/admin/emails/{id}': { params: IdParams, reply: NoContent },
  'GET /v1/contacts/emails': { reply: AgentEmailList },
  'POST /v1/contacts/email_preview': { body: EmailPreviewBody, reply: EmailPreview },
  'GET /v1/unsubscribe/{token}': { params: UnsubscribeParams, reply: UnsubscribeInfo },
  'POST /v1/unsubscribe/{token}': { params: UnsubscribeParams, reply: UnsubscribeReply },
});
