import { HeartFilled, HeartOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { CrewLink } from '@crewswap/proto';
import { useLikeCrewLink } from '../../api/crewLinks';

/** Like or unlike; the count is the server's answer, so double clicks never count twice. */
export function LikeButton({ link }: { link: CrewLink }) {
  const like = useLikeCrewLink();
  const liked = link.isLikedByCurrentUser;
  return (
    <Button
      className={liked ? 'like-button liked' : 'like-button'}
      icon={liked ? <HeartFilled /> : <HeartOutlined />}
      aria-pressed={liked}
      aria-label={`${liked ? 'Unlike' : 'Like'} ${link.title}: ${link.likesCount} ${link.likesCount === 1 ? 'like' : 'likes'}`}
      loading={like.isPending}
      onClick={(event) => {
        event.stopPropagation();
        like.mutate({ link, like: !liked });
      }}
    >
      {link.likesCount}
    </Button>
  );
}
