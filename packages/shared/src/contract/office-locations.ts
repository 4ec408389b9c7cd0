import {
  IdParams,
  NoContent,
  OfficeLocation,
  OfficeLocationBody,
  OfficeLocationCrud,
  OfficeLocationList,
  Paging,
} from '../index.js';
import { defineContract } from './define.js';

export const officeLocationsContract = defineContract({
  'GET /v1/admin/office_locations': { query: Paging, reply: OfficeLocationCrud.list },
  'POST /v1/admin/office_locations': { body: OfficeLocationBody, reply: OfficeLocation },
  'GET /v1/admin/office_locations/{id}': { params: IdParams, reply: OfficeLocation },
  'PUT /v1/admin/office_locations/{id}': { params: IdParams, body: OfficeLocationBody, reply: OfficeLocation },
  'DELETE /v1/admin/office_locations/{id}': { params: IdParams, reply: NoContent },
  'GET /v1/users/office_locations': { query: Paging, reply: OfficeLocationList },
});
