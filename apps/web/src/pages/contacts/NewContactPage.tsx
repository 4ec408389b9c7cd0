import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { contactsApi } from '../../api/contacts';
import { qk } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';
import { ContactForm } from './ContactForm';

/** /contacts/new: the same form as the detail page; on success, the new contact's page. */
export function NewContactPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <Stack>
      <PageHeading title="New contact" section="Contacts" />
      <ContactForm
        contact={null}
        checkDuplicates
        submitLabel="Create contact"
        onSubmit={async (body) => {
          const c = await contactsApi.create(body);
          qc.setQueryData(qk('GET /v1/contacts/{id}', { params: { id: c.number } }), c);
          navigate(`/contacts/${c.number}`);
        }}
      />
    </Stack>
  );
}
