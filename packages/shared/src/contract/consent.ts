import { ConsentChangeBody, ConsentRecord, ContactParams, PtcBody } from '../index.js';
import { defineContract } from './define.js';

export const consentContract = defineContract({
  'GET /v1/contacts/{id}/consent': { params: ContactParams, reply: ConsentRecord },
  'POST /v1/contacts/{id}/consent': { params: ContactParams, body: ConsentChangeBody, reply: ConsentRecord },
  'POST /v1/contacts/{id}/permission_to_contact': { params: ContactParams, body: PtcBody, reply: ConsentRecord },
  'DELETE /v1/contacts/{id}/permission_to_contact': { params: ContactParams, reply: ConsentRecord },
});
