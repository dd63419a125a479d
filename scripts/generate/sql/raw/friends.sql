select account_id, username, name, description, profile_image, followers_count, graph_score
from friends order by account_id
