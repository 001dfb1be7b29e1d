import { Email, LoginRequest } from '../../api/schemas';
import { useAuth } from '../hooks/AuthProvider';
import { AuthForm, AuthSwitchLink } from './AuthForm';

/**
 * /login. The password is checked only for presence here, as the server's login schema does:
 * the length rules apply when choosing a password at sign-up.
 */
export function LoginScreen() {
  const { login } = useAuth();
  return (
    <AuthForm
      title="Log in"
      description="Welcome back. Log in to see your products and commissions."
      submitLabel="Log in"
      rules={{ email: Email, password: LoginRequest.shape.password }}
      passwordAutoComplete="current-password"
      submit={login}
      successPath="/member"
      footer={
        <>
          <p>
            <AuthSwitchLink to="/forgot_password">Forgot password?</AuthSwitchLink>
          </p>
          <p>
            New here? <AuthSwitchLink to="/signup">Create an account</AuthSwitchLink>
          </p>
        </>
      }
    />
  );
}
