import {
  Health,
  IdParams,
  LoginBody,
  LoginReply,
  MessageReply,
  ResetByTokenBody,
  ResetInstructionsBody,
  SignedInReply,
  SsoBody,
  SsoReply,
  SwitchSessionRequest,
} from '../index.js';
import { defineContract } from './define.js';

export const sessionContract = defineContract({
  'GET /v1/health': { reply: Health },
  'POST /v1/sessions': { body: LoginBody, reply: LoginReply },
  'DELETE /v1/sessions': { reply: SignedInReply, noContent: true },
  'POST /v1/sessions/{id}': { params: IdParams, body: SwitchSessionRequest, reply: SignedInReply },
  'POST /v1/users/reset_password_instructions': { body: ResetInstructionsBody, reply: MessageReply },
  'POST /v1/users/reset_password_by_token': { body: ResetByTokenBody, reply: MessageReply },
  'POST /v1/sessions/sso': { body: SsoBody, reply: SsoReply },
});
