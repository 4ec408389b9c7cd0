/**
 * The shared /v1 contract and the server agree: every entry is a route, with the very schemas the route validates
 * and serializes with (docs/decisions/typed-contract.md). An altered copy of an entry must be reported.
 */
import { ContactDetail, IdParams, NoContent } from '@harbor/shared';
import { type ContractKey, contract, contractEntries, type Endpoint } from '@harbor/shared/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractDrift, routeTable } from './contract-drift.js';
import { createTestApp, type TestApp } from './harness.js';

let t: TestApp;
let routes: ReturnType<typeof routeTable>;

beforeAll(async () => {
  t = await createTestApp();
  routes = routeTable(t.app.declaredRoutes);
});
afterAll(async () => t?.close());

describe('the /v1 contract', () => {
  it('names only routes the server has, with the same schemas', () => {
    expect(contractDrift(contractEntries(), routes)).toEqual([]);
  });

  it('documents the form fields of every multipart route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const multipart = t.app.declaredRoutes.filter((r) =>
      [r.schema?.consumes ?? []].flat().includes('multipart/form-data'),
    );
    expect(multipart.length).toBeGreaterThan(0);
    for (const r of multipart) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      const method = [r.method].flat()[0].toLowerCase();
      const form = doc.paths[path][method].requestBody?.content?.['multipart/form-data']?.schema;
      expect(form?.properties, `${method} ${path}`).toBeDefined();
      expect(Object.keys(form.properties)).toEqual(Object.keys(r.schema?.multipart?.shape ?? {}));
    }
  });

  it('reports a drift in any part of an entry', () => {
    const key: ContractKey = 'GET /v1/contacts/{id}';
    const entry: Endpoint = contract[key];
    const altered: [string, Endpoint][] = [
      // A reply that gained a field the server does not send.
      [key, { ...entry, reply: ContactDetail.extend({ nickname: z.string() }) }],
      // A body the server does not take.
      [key, { ...entry, body: z.object({ note: z.string() }) }],
      // Path parameters of another kind (a number where the route takes a contact number string).
      [key, { ...entry, params: IdParams }],
      // A route that does not exist (renamed on one side only).
      ['GET /v1/contacts/{id}/nickname', entry],
      ['DELETE /v1/contacts/{id}', { params: entry.params, reply: NoContent }],
    ];
    expect(contractDrift(altered, routes)).toEqual([
      "GET /v1/contacts/{id}: reply differs from the server's",
      'GET /v1/contacts/{id}: body is in the contract only',
      "GET /v1/contacts/{id}: params differs from the server's",
      'GET /v1/contacts/{id}/nickname: no such route on the server',
      'DELETE /v1/contacts/{id}: no such route on the server',
    ]);
  });
});
