import { Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { contactsApi } from '../../api/contacts';
import { ContactForm } from './ContactForm';

/** /contacts/new: the same form as the detail page; on success, the new contact's page. */
export function NewContactPage() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  return (
    <Stack>
      <Title order={2}>New contact</Title>
      <ContactForm
        contact={null}
        submitLabel="Create contact"
        onSubmit={async (body) => {
          const c = await contactsApi.create(body);
          qc.setQueryData(['contact', c.number, 'detail'], c);
          navigate(`/contacts/${c.number}`);
        }}
      />
    </Stack>
  );
}
