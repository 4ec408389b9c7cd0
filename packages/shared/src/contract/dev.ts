import {
  DevMail,
  DevMailList,
  DevPhone,
  DevPhoneList,
  DevPhoneQuery,
  DevPhoneReplyBody,
  DevPhoneReplyReply,
  IdParams,
} from '../index.js';
import { defineContract } from './define.js';

export const devContract = defineContract({
  'GET /v1/dev/mails': { reply: DevMailList },
  'GET /v1/dev/mails/{id}': { params: IdParams, reply: DevMail },
  'GET /v1/dev/phones': { reply: DevPhoneList },
  'GET /v1/dev/phone': { query: DevPhoneQuery, reply: DevPhone },
  'POST /v1/dev/phone/reply': { body: DevPhoneReplyBody, reply: DevPhoneReplyReply },
});
