/** Admin > Users. */
import { UsersDirectory } from './users/UsersDirectory';

export function UsersPage() {
  return <UsersDirectory title="Users" manage />;
}
