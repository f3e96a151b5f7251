/** Administering users: `POST /users` (create) and `PATCH /users/{user_id}` / `{email}` (name, role), with `realm_user` events. */
import { badRequest } from '../domain/errors.js';
import { canSeeEmail } from '../domain/users.js';
import type { Services } from '../services.js';
import { me, type ApiRoute } from './route.js';
import { updateUser } from '../actions/users.js';
import { createUser } from '../actions/users.js';

export function userAdminRoutes(services: Services): ApiRoute[] {
  const { org } = services;
  const target = (id: number) => {
    const user = org.users.get(id);
    if (!user || user.isSystemBot) throw badRequest('No such user');
    return user;
  };
  return [
    {
      method: 'POST',
      path: '/users',
      schema: 'create-user',
      auth: 'user',
      handler: async (request) => {
        const p = request.params;
        const user = await createUser(services, me(request), { email: p.email, fullName: p.full_name, password: p.password });
        return { user_id: user.id };
      },
    },
    {
      method: 'PATCH',
      path: '/users/{user_id:int}',
      schema: 'update-user',
      auth: 'user',
      handler: (request) => updateUser(services, me(request), target(request.params.user_id), request.params),
    },
    {
      method: 'PATCH',
      path: '/users/{email:email}',
      schema: 'update-user',
      auth: 'user',
      handler: (request) => {
        const actor = me(request);
        const email = request.params.email as string;
        const user = org.users.byEmail(email);
        const visible = user && (user.deliveryEmail.toLowerCase() !== email.toLowerCase() || canSeeEmail(actor, user));
        if (!user || !visible || user.isSystemBot) throw badRequest('No such user');
        return updateUser(services, actor, user, request.params);
      },
    },
  ];
}
