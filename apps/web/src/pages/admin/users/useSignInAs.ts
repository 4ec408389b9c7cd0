import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { loginAsUser } from '../../../api/people';
import { ME_KEY, setCurrentUser } from '../../../auth/session';

/** "Log in as" / "Impersonate": the server answers the target user on a new session; the app restarts at /. */
export function useSignInAs() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: ({ id, type }: { id: number; type: 'login_as' | 'impersonate' }) => loginAsUser(id, type),
    onSuccess: ({ user }) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
      setCurrentUser(queryClient, user);
      navigate('/');
    },
  });
}
