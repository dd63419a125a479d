select account_id, username, slug, name, description, profile_image, blue_verified, is_active, is_suspended,
  is_monitored, followers_count
from accounts order by account_id
