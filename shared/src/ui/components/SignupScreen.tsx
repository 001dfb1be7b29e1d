import { Email, MIN_PASSWORD, NewPassword, SignupRequest } from '../../api/schemas';
import { useAuth } from '../hooks/AuthProvider';
import { AuthForm, AuthSwitchLink } from './AuthForm';

/**
 * /signup: the same e-mail and password rules as the server's (shared zod schemas). Whether a
 * password is on the list of leaked ones only the server knows; its answer shows at the field.
 */
export function SignupScreen() {
  const { signup } = useAuth();
  return (
    <AuthForm
      title="Create your account"
      description="Share approved products and earn a commission on every sale."
      submitLabel="Sign up"
      rules={{ email: Email, password: NewPassword }}
      formRule={SignupRequest}
      passwordAutoComplete="new-password"
      passwordHint={`At least ${MIN_PASSWORD} characters.`}
      submit={signup}
      successPath="/member"
      footer={
        <p>
          <AuthSwitchLink to="/login">Already have an account? Log in</AuthSwitchLink>
        </p>
      }
    />
  );
}
