import { useAuthConfig } from '../../api/auth';

/**
 * '@company-domain' beside an email prefix. Until auth's config answers it is a placeholder of its
 * size, so the field never shows a bare '@' that then changes.
 */
export function EmailDomain() {
  const { data, isPending } = useAuthConfig();
  // A plain placeholder, not antd's Skeleton: this is on the first screen, whose code is kept small.
  if (isPending) return <span className="email-suffix-loading" aria-hidden="true" />;
  const domain = data?.companyEmailDomain;
  return domain ? <span className="email-suffix">{`@${domain}`}</span> : null;
}
