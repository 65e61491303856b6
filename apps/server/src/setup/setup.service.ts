// First-run setup: the company and the first (admin) user, exactly once.
import { randomUUID } from 'node:crypto';
import { messages } from '@loupe/contracts';
import type { AuthService, StartedSession } from '../auth/auth.service.js';
import { hashPassword } from '../auth/passwords.js';
import type { SessionsRepository } from '../auth/sessions.repository.js';
import type { Transact } from '../db/transact.js';
import type { Clock } from '../platform/clock.js';
import { BadRequest, Conflict } from '../platform/errors.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { UserRecord, UsersRepository } from '../users/users.repository.js';

export const setupMessages = {
  alreadyComplete: 'Setup is already complete: sign in instead.',
} as const;

export type SetupState = 'INITIAL' | 'COMPLETE';

/** What setup writes, in one transaction. */
export interface SetupRepos {
  settings: SettingsRepository;
  users: Pick<UsersRepository, 'insert'>;
  sessions: SessionsRepository;
}

export class SetupService {
  constructor(
    private readonly settings: Pick<SettingsRepository, 'get'>,
    private readonly transact: Transact<SetupRepos>,
    private readonly auth: Pick<AuthService, 'startSession'>,
    private readonly clock: Clock,
  ) {}

  async state(): Promise<SetupState> {
    return (await this.settings.get('setup_state')) === 'COMPLETE' ? 'COMPLETE' : 'INITIAL';
  }

  /** Creates the first admin and the company, marks setup complete, and signs the admin in. */
  async setup(input: {
    company: string;
    user?: { username: string; email: string; password: string };
  }): Promise<{ user: UserRecord; session: StartedSession }> {
    if ((await this.state()) === 'COMPLETE') throw new Conflict(setupMessages.alreadyComplete);
    const { user: userInput } = input;
    if (!userInput) throw new BadRequest(messages.invalidUserConfig);
    const passwordHash = await hashPassword(userInput.password);
    return this.transact(async (repos) => {
      await repos.settings.getOrInit('setup_state', 'INITIAL');
      // Compare-and-set, so two setups racing cannot both create an admin.
      if (!(await repos.settings.transition('setup_state', 'INITIAL', 'COMPLETE'))) {
        throw new Conflict(setupMessages.alreadyComplete);
      }
      const now = this.clock();
      const user: UserRecord = {
        id: randomUUID(),
        email: userInput.email,
        name: userInput.username,
        role: 'admin',
        enabled: true,
        password_hash: passwordHash,
        auth_type: 'local',
        created_at: now,
        updated_at: now,
      };
      await repos.users.insert(user);
      await repos.settings.set('company_name', input.company);
      const session = await this.auth.startSession(user.id, false, repos);
      return { user, session };
    });
  }
}
