import { SoaPublicView, SoaSubmitBody, SoaSubmitReply, SoaViewQuery } from '../index.js';
import { defineContract } from './define.js';

export const sessionContract = defineContract({
  // 'GET /v1/health': { reply: TODO_reply },
  'GET /v1/soa_requests/view': { query: SoaViewQuery, reply: SoaPublicView },
  'POST /v1/soa_requests/submit': { body: SoaSubmitBody, reply: SoaSubmitReply },
  // 'POST /v1/sessions': { body: LoginBody, reply: TODO_reply },
  // 'DELETE /v1/sessions': { reply: TODO_reply },
  // 'POST /v1/sessions/{id}': { params: IdParams, body: TODO_body, reply: TODO_reply },
  // 'POST /v1/users/reset_password_instructions': { body: ResetInstructionsBody, reply: TODO_reply },
  // 'POST /v1/users/reset_password_by_token': { body: ResetByTokenBody, reply: TODO_reply },
  // 'POST /v1/sessions/sso': { body: SsoBody, reply: TODO_reply },
});
