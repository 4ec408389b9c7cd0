import {
  IdParams,
  SoaListQuery,
  SoaPublicView,
  SoaRejectBody,
  SoaRequest,
  SoaRequestBody,
  SoaRequestList,
  SoaSubmitBody,
  SoaSubmitReply,
  SoaViewQuery,
} from '../index.js';
import { defineContract } from './define.js';

export const soaContract = defineContract({
  'GET /v1/soa_requests/view': { query: SoaViewQuery, reply: SoaPublicView },
  'POST /v1/soa_requests/submit': { body: SoaSubmitBody, reply: SoaSubmitReply },
  'POST /v1/users/soa_requests': { body: SoaRequestBody, reply: SoaRequest },
  'GET /v1/users/soa_requests': { query: SoaListQuery, reply: SoaRequestList },
  'GET /v1/users/soa_requests/{id}': { params: IdParams, reply: SoaRequest },
  'PATCH /v1/users/soa_requests/{id}/complete': { params: IdParams, reply: SoaRequest },
  'PATCH /v1/users/soa_requests/{id}/reject': { params: IdParams, body: SoaRejectBody, reply: SoaRequest },
});
