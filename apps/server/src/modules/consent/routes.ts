/**
 * The consent record on a contact (DECIDED routes, docs/decisions/consent-record.md): read it, record an opt-out or
 * a consent per channel (two clicks from a phone call: FCC 24-18 counts a revocation by any reasonable means), and
 * record or withdraw the Medicare permission to contact. Under /v1/contacts/{id}/ like the other contact records.
 */
import { ConsentChangeBody, ConsentRecord, PTC_MONTHS, PtcBody } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from '../contacts/access.js';
import { ContactParams, contactTenant } from '../contacts/detail-routes.js';
import type { Module } from '../types.js';
import { loadConsentRecord } from './presenter.js';
import { grantPermissionToContact, recordConsent, revokePermissionToContact } from './record.js';

const tags = ['consent'];
const config = { access: 'contacts.use', tenant: contactTenant } as const;
const medicare = { ...config, feature: 'medicare_center' } as const;
/** A permission given a moment "in the future" is a clock a little ahead, not a mistake. */
const CLOCK_SKEW_MS = 5 * 60_000;

export const consentModule: Module = {
  name: 'consent',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;

    app.get(
      '/v1/contacts/:id/consent',
      {
        config,
        schema: {
          tags,
          summary:
            'The consent record: per channel status, since when, how and who; suppressions; permission to contact',
          params: ContactParams,
          response: { 200: ConsentRecord },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const contact = await findVisibleContact(db, auth, req.params.id);
        return loadConsentRecord(db, auth.company.id, contact);
      },
    );

    app.post(
      '/v1/contacts/:id/consent',
      {
        config,
        schema: {
          tags,
          summary: 'Record an opt-out (any reasonable means counts) or a consent for one or more channels',
          params: ContactParams,
          body: ConsentChangeBody,
          response: { 200: ConsentRecord },
        },
      },
      async (req) => {
        const auth = authOf(req);
        // A deleted contact's opt-out still counts: the person may come back through an import.
        const contact = await findVisibleContact(db, auth, req.params.id);
        await db.transaction(async (tx) => {
          for (const channel of req.body.channels) {
            await recordConsent(tx, {
              companyId: auth.company.id,
              channel,
              status: req.body.status,
              source: req.body.source,
              detail: req.body.note || null,
              actorId: auth.user.id,
              contactIds: [contact.id],
            });
          }
        });
        return loadConsentRecord(db, auth.company.id, contact);
      },
    );

    app.post(
      '/v1/contacts/:id/permission_to_contact',
      {
        config: medicare,
        schema: {
          tags,
          summary: `Record the Medicare permission to contact (${PTC_MONTHS} months, for the products named)`,
          params: ContactParams,
          body: PtcBody,
          response: { 200: ConsentRecord },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const contact = await findVisibleContact(db, auth, req.params.id, true);
        const granted = req.body.granted_at ? new Date(req.body.granted_at) : new Date();
        if (granted.getTime() > Date.now() + CLOCK_SKEW_MS) throw invalid('granted_at', 'cannot be in the future');
        const expires = new Date(granted);
        expires.setMonth(expires.getMonth() + PTC_MONTHS);
        if (expires.getTime() <= Date.now()) {
          throw invalid('granted_at', `is more than ${PTC_MONTHS} months ago: that permission has already expired`);
        }
        await grantPermissionToContact(db, {
          companyId: auth.company.id,
          contactId: contact.id,
          products: req.body.products,
          grantedAt: granted,
          source: req.body.source,
          detail: req.body.note || null,
          actorId: auth.user.id,
        });
        return loadConsentRecord(db, auth.company.id, contact);
      },
    );

    app.delete(
      '/v1/contacts/:id/permission_to_contact',
      {
        config: medicare,
        schema: {
          tags,
          summary: 'Withdraw the Medicare permission to contact (the beneficiary asked not to be contacted)',
          params: ContactParams,
          response: { 200: ConsentRecord },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const contact = await findVisibleContact(db, auth, req.params.id);
        await revokePermissionToContact(db, {
          companyId: auth.company.id,
          contactId: contact.id,
          source: 'agent',
          actorId: auth.user.id,
        });
        return loadConsentRecord(db, auth.company.id, contact);
      },
    );
  },
};
