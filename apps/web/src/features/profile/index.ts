// What the app shell may use of the profile feature: the profile menu.
export { ProfileMenu } from './ProfileMenu';
