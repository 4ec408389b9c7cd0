import { defineContract } from './define.js';

export const devContract = defineContract({
  // 'GET /v1/dev/mails': { reply: TODO_reply },
  // 'GET /v1/dev/mails/{id}': { params: IdParams, reply: TODO_reply },
  // 'GET /v1/dev/phones': { reply: TODO_reply },
  // 'GET /v1/dev/phone': { query: TODO_query, reply: TODO_reply },
  // 'POST /v1/dev/phone/reply': { body: TODO_body, reply: TODO_reply },
});
